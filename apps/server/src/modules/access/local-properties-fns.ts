import { parse as parseYaml } from 'yaml';

/**
 * Properties set in the server's configuration (source `local`): read-only, listed by
 * `GET /api/properties` before the database ones, and winning over a database property of
 * the same name. Two places set them (docs/access.md):
 * - `LOOKOUT_PROPERTIES` / `--properties`: `incidents.disable=true,logs.disable=true` or a JSON
 *   object `{"incidents.disable": "true"}`;
 * - a YAML file, `LOOKOUT_PROPERTIES_FILE` / `--properties-file` or else
 *   `<data dir>/properties.yaml` when it exists: `name: value` or
 *   `name: { value: ..., description: ... }`.
 * The inline setting wins over the file for a name both set.
 */
export type LocalProperty = { name: string; value: string; description?: string };

export const PROPERTY_NAME_MAX = 255;
export const PROPERTY_VALUE_MAX = 10_000;
export const PROPERTY_DESCRIPTION_MAX = 2000;
const PROPERTIES_MAX = 1000;

/** A configuration problem, worded to name the offending entry. */
export class LocalPropertiesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LocalPropertiesError';
  }
}

function scalar(value: unknown, where: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new LocalPropertiesError(`${where} must be a string, number or boolean`);
}

function checked(property: LocalProperty): LocalProperty {
  const name = property.name.trim();
  if (name.length === 0) throw new LocalPropertiesError('a property has an empty name');
  if (name.length > PROPERTY_NAME_MAX)
    throw new LocalPropertiesError(`property '${name.slice(0, 50)}…' has a name over ${PROPERTY_NAME_MAX} characters`);
  if (property.value.length > PROPERTY_VALUE_MAX)
    throw new LocalPropertiesError(`property '${name}' has a value over ${PROPERTY_VALUE_MAX} characters`);
  if (property.description !== undefined && property.description.length > PROPERTY_DESCRIPTION_MAX)
    throw new LocalPropertiesError(`property '${name}' has a description over ${PROPERTY_DESCRIPTION_MAX} characters`);
  return { ...property, name };
}

function fromObject(object: unknown, where: string): LocalProperty[] {
  if (typeof object !== 'object' || object === null || Array.isArray(object)) {
    throw new LocalPropertiesError(`${where} must be a mapping of property names to values`);
  }
  const entries = Object.entries(object as Record<string, unknown>);
  if (entries.length > PROPERTIES_MAX)
    throw new LocalPropertiesError(`${where} sets more than ${PROPERTIES_MAX} properties`);
  return entries.map(([name, raw]) => {
    if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
      const { value, description } = raw as { value?: unknown; description?: unknown };
      if (value === undefined) throw new LocalPropertiesError(`property '${name}' in ${where} has no value`);
      return checked({
        name,
        value: scalar(value, `the value of '${name}' in ${where}`),
        ...(description === undefined || description === null
          ? {}
          : { description: scalar(description, `the description of '${name}' in ${where}`) }),
      });
    }
    return checked({ name, value: scalar(raw, `the value of '${name}' in ${where}`) });
  });
}

/** Parses `LOOKOUT_PROPERTIES`: a JSON object, or `name=value` pairs separated by commas. */
export function parseInlineProperties(text: string): LocalProperty[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  if (trimmed.startsWith('{')) {
    let json: unknown;
    try {
      json = JSON.parse(trimmed);
    } catch (error) {
      throw new LocalPropertiesError(`is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
    return fromObject(json, 'the JSON object');
  }
  const pairs = trimmed.split(',').filter((pair) => pair.trim() !== '');
  if (pairs.length > PROPERTIES_MAX) throw new LocalPropertiesError(`sets more than ${PROPERTIES_MAX} properties`);
  return pairs.map((pair) => {
    const equals = pair.indexOf('=');
    if (equals === -1) throw new LocalPropertiesError(`'${pair.trim().slice(0, 100)}' is not name=value`);
    return checked({ name: pair.slice(0, equals), value: pair.slice(equals + 1).trim() });
  });
}

/** Parses a properties YAML file's text (an empty file sets nothing). */
export function parsePropertiesYaml(text: string, file: string): LocalProperty[] {
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (error) {
    throw new LocalPropertiesError(
      `${file} is not valid YAML: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (document === null || document === undefined) return [];
  return fromObject(document, file);
}

/** Layers property lists: a later list wins for a name; the result keeps first-seen order. */
export function mergeLocalProperties(...layers: readonly (readonly LocalProperty[])[]): LocalProperty[] {
  const byName = new Map<string, LocalProperty>();
  for (const layer of layers) for (const property of layer) byName.set(property.name, property);
  return [...byName.values()];
}
