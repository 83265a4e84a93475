import { JOB_RESOURCE_LINK_BASES, type Feature } from '@lookout/contracts';

/**
 * The resource types whose page exists in this build (router.tsx), with the feature that
 * switches that page off. The spec's other link bases (spec 2 section 2.7: topologies,
 * catalog items, playbooks) join as their areas add their routes; until then a
 * run's resource shows as text.
 */
const LINKED_RESOURCE_TYPES: Readonly<Record<string, Feature>> = {
  canary: 'settings.health',
  team: 'settings.teams',
  topology: 'settings.topology',
  // A scraper's page, /catalog/scrapers/{id}, is a catalog page (spec 1 section 2.1: feature config).
  config_scraper: 'config',
  catalog_scraper: 'config',
};

/**
 * Where a job run's resource opens: `{link base}/{resource id}` for a type whose page exists
 * and is not disabled, else undefined.
 */
export function jobResourceHref(
  resourceType: string,
  resourceId: string,
  isFeatureDisabled: (feature: Feature) => boolean,
): string | undefined {
  const feature = LINKED_RESOURCE_TYPES[resourceType];
  const base = JOB_RESOURCE_LINK_BASES[resourceType];
  if (!feature || !base || isFeatureDisabled(feature)) return undefined;
  return `${base}/${encodeURIComponent(resourceId)}`;
}
