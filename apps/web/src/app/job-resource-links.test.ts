import { describe, expect, it } from 'vitest';
import { jobResourceHref } from './job-resource-links';

const nothingDisabled = () => false;

describe('jobResourceHref (spec 2 section 2.7)', () => {
  it("links a canary to its settings page, by the spec's link base", () => {
    expect(jobResourceHref('canary', '0192a5d4-1111-7000-8000-000000000001', nothingDisabled)).toBe(
      '/settings/canaries/0192a5d4-1111-7000-8000-000000000001',
    );
  });

  it('links a team to its page under settings', () => {
    expect(jobResourceHref('team', 'team-1', nothingDisabled)).toBe('/settings/teams/team-1');
    expect(jobResourceHref('team', 'team-1', (feature) => feature === 'settings.teams')).toBeUndefined();
  });

  it('links a topology run to its settings form, unless its settings page is off', () => {
    expect(jobResourceHref('topology', 'top-1', nothingDisabled)).toBe('/settings/topologies/top-1');
    expect(jobResourceHref('topology', 'top-1', (feature) => feature === 'settings.topology')).toBeUndefined();
  });

  it('links a scraper run to the scraper page, unless the scrapers feature is off', () => {
    expect(jobResourceHref('config_scraper', 'scraper-1', nothingDisabled)).toBe('/catalog/scrapers/scraper-1');
    expect(jobResourceHref('catalog_scraper', 'scraper-1', nothingDisabled)).toBe('/catalog/scrapers/scraper-1');
    expect(jobResourceHref('config_scraper', 'scraper-1', (feature) => feature === 'config')).toBeUndefined();
  });

  it('links nothing whose page this build does not have yet', () => {
    for (const type of ['config', 'playbook', 'unknown']) {
      expect(jobResourceHref(type, 'x', nothingDisabled)).toBeUndefined();
    }
  });

  it('links nothing while the page is switched off', () => {
    expect(jobResourceHref('canary', 'x', (feature) => feature === 'settings.health')).toBeUndefined();
  });
});
