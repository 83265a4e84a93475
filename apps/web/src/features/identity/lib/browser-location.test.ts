import { describe, expect, it } from 'vitest';
import { appPathOf, loginPath } from './browser-location';

describe('appPathOf', () => {
  it('keeps same-origin pages inside the app and sends API and other origins to the browser', () => {
    const origin = window.location.origin;
    expect(appPathOf(`${origin}/profile-settings?flow=1#x`)).toBe('/profile-settings?flow=1#x');
    expect(appPathOf('/health?x=1')).toBe('/health?x=1');
    expect(appPathOf(`${origin}/api/.ory/self-service/login/browser`)).toBeUndefined();
    expect(appPathOf('https://github.example/authorize')).toBeUndefined();
  });
});

describe('loginPath', () => {
  it('builds the sign-in address of each mode with return_to', () => {
    expect(loginPath()).toBe('/login');
    expect(loginPath({ returnTo: '/a?b=1' })).toBe('/login?return_to=%2Fa%3Fb%3D1');
    expect(loginPath({ aal2: true, returnTo: '/' })).toBe('/login?aal=aal2&return_to=%2F');
    expect(loginPath({ refresh: true })).toBe('/login?refresh=true');
  });
});
