import { FEATURES, type Feature } from './enums.js';

/**
 * Feature flags (spec 1, section 6): a property named `{feature}.disable` whose value is
 * `true` switches the feature off, and a child feature is off whenever its parent is. The
 * server (routes answer 404) and the web (menus, routes and actions disappear) both decide
 * with these functions, so they never disagree.
 */

/** The child features that follow a parent feature (spec 1, section 6). */
export const FEATURE_PARENTS: Readonly<Partial<Record<Feature, Feature>>> = {
  'settings.config_scraper': 'config',
  'settings.topology': 'topology',
  'settings.health': 'health',
  'settings.job_history': 'health',
};

/** Suffix of the property that disables a feature. */
export const FEATURE_DISABLE_SUFFIX = '.disable';

/** The property that disables a feature: `incidents` → `incidents.disable`. */
export function featureDisableProperty(feature: Feature): string {
  return `${feature}${FEATURE_DISABLE_SUFFIX}`;
}

/**
 * Property values by name, as `GET /api/properties` lists them (a local property shadows a
 * database one of the same name, so each name has one value).
 */
export type FeatureFlagValues = Readonly<Record<string, string | undefined>>;

/** Builds {@link FeatureFlagValues} from a property list; the first entry of a name wins. */
export function flagValues(properties: readonly { name: string; value: string }[]): FeatureFlagValues {
  const values: Record<string, string> = {};
  for (const property of properties) {
    if (!Object.hasOwn(values, property.name)) values[property.name] = property.value;
  }
  return values;
}

/**
 * The spec's switch value is `true`. Surrounding blanks and letter case are ignored so that
 * `True` typed on the flags page does what its author meant; any other value (`false`,
 * `on`, `1`, empty) leaves the feature on.
 */
export function isTrueValue(value: string | undefined): boolean {
  return value !== undefined && value.trim().toLowerCase() === 'true';
}

/** True when the feature, or a parent it follows, is disabled by its `.disable` property. */
export function isFeatureDisabled(flags: FeatureFlagValues, feature: Feature): boolean {
  if (isTrueValue(flags[featureDisableProperty(feature)])) return true;
  const parent = FEATURE_PARENTS[feature];
  return parent !== undefined && isFeatureDisabled(flags, parent);
}

/** Every feature the flags disable, parents' children included, in {@link FEATURES} order. */
export function disabledFeatures(flags: FeatureFlagValues): Feature[] {
  return FEATURES.filter((feature) => isFeatureDisabled(flags, feature));
}
