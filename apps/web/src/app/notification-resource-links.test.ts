import { describe, expect, it } from 'vitest';
import { notificationResourceHref } from './notification-resource-links';

describe('notification resource links', () => {
  const none = () => false;
  it('opens each resource type on its page', () => {
    expect(notificationResourceHref('check', 'c1', none)).toBe('/health?checkId=c1');
    expect(notificationResourceHref('canary', 'k1', none)).toBe('/settings/canaries/k1');
    expect(notificationResourceHref('config', 'f1', none)).toBe('/catalog/f1');
    expect(notificationResourceHref('component', 'p1', none)).toBe('/topology/p1');
  });
  it('leaves the resource as text while its page is disabled', () => {
    expect(notificationResourceHref('check', 'c1', (feature) => feature === 'health')).toBeUndefined();
    expect(notificationResourceHref('component', 'p1', (feature) => feature === 'topology')).toBeUndefined();
  });
});
