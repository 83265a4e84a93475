import {
  flagValues,
  isFeatureDisabled,
  propertyType,
  type Feature,
  type FeatureFlagValues,
  type Property,
} from '@lookout/contracts';
import type { AccessRepository } from './access-repository.js';
import type { LocalProperty } from './local-properties-fns.js';

export type FeatureFlagsServiceDeps = {
  repository: Pick<AccessRepository, 'listProperties' | 'propertyValues'>;
  /** Properties from the server's configuration, read once at start. */
  local: readonly LocalProperty[];
  /**
   * How long feature checks may reuse the flags they read. Writes through this process's
   * data API refresh them at once (`invalidate`); this bounds how long another replica's
   * change takes to reach this one.
   */
  cacheMs?: number;
  now?: () => number;
};

export type FeatureFlagsService = ReturnType<typeof createFeatureFlagsService>;

export const FEATURE_FLAG_CACHE_MS = 10_000;

/**
 * Feature flags on the server: the merged property list (`GET /api/properties`) and the
 * check that hides a disabled feature's routes. Local properties win over database rows of
 * the same name, which the merged list then leaves out.
 */
export function createFeatureFlagsService({
  repository,
  local,
  cacheMs = FEATURE_FLAG_CACHE_MS,
  now = Date.now,
}: FeatureFlagsServiceDeps) {
  const localNames = new Set(local.map((property) => property.name));
  let cached: { at: number; values: Promise<FeatureFlagValues> } | undefined;

  async function readValues(): Promise<FeatureFlagValues> {
    const rows = await repository.propertyValues();
    return flagValues([...local, ...rows]);
  }

  function values(): Promise<FeatureFlagValues> {
    const at = now();
    if (!cached || at - cached.at >= cacheMs) {
      const pending = readValues();
      // A failed read is not kept: the next request tries the database again.
      pending.catch(() => {
        if (cached?.values === pending) cached = undefined;
      });
      cached = { at, values: pending };
    }
    return cached.values;
  }

  return {
    /** Names of the local (read-only) properties. */
    localNames: (): string[] => [...localNames],

    /** Local properties first (in configuration order), then database ones by name. */
    async list(): Promise<Property[]> {
      const rows = await repository.listProperties();
      const fromConfig: Property[] = local.map((property) => ({
        name: property.name,
        value: property.value,
        description: property.description ?? null,
        source: 'local',
        type: propertyType(property.value),
        created_by: null,
        created_at: null,
        updated_at: null,
      }));
      const fromDb: Property[] = rows
        .filter((row) => !localNames.has(row.name))
        .map((row) => ({
          name: row.name,
          value: row.value,
          description: row.description,
          source: 'db',
          type: propertyType(row.value),
          created_by: row.created_by
            ? { id: row.created_by, name: row.created_by_name ?? '', avatar: row.created_by_avatar }
            : null,
          created_at: row.created_at.toISOString(),
          updated_at: row.updated_at.toISOString(),
        }));
      return [...fromConfig, ...fromDb];
    },

    /** The flag values feature checks use (cached for `cacheMs`). */
    values,

    /** True while the feature, or the parent it follows, is disabled. */
    async isDisabled(feature: Feature): Promise<boolean> {
      return isFeatureDisabled(await values(), feature);
    },

    /** Forgets the cached values (after a write to properties). */
    invalidate(): void {
      cached = undefined;
    },
  };
}
