import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { parseScrapeConfigDocument } from '../scrape-config.js';
import { parseTopologyDocument } from '../topology-spec.js';
import {
  LOOKOUT_CHART_NAME,
  LOOKOUT_CHART_PATH,
  LOOKOUT_IMAGE_REPOSITORY,
  lookoutChartValuesJsonSchema,
  lookoutChartValuesSchema,
} from './lookout-chart.js';
import { agentChartValues } from './snippets.js';

/**
 * The chart in deploy/helm/lookout, checked without Helm (neither Debian nor npm packages it):
 * its values.schema.json is the one generated from lookoutChartValuesSchema, values.yaml and the
 * values the agent snippets set pass that JSON Schema (with a JSON Schema validator, as Helm
 * checks them) and the zod schema, and every `.Values` path the templates read is in values.yaml.
 */

const chartDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..', LOOKOUT_CHART_PATH);
const schemaFile = path.join(chartDir, 'values.schema.json');
const defaults = parse(readFileSync(path.join(chartDir, 'values.yaml'), 'utf8')) as Record<string, unknown>;
const templates = readdirSync(path.join(chartDir, 'templates')).map((file) => ({
  file,
  text: readFileSync(path.join(chartDir, 'templates', file), 'utf8'),
}));

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Helm's merge of a values override over the chart's values.yaml: maps merge, the rest replaces. */
function mergeValues(base: Record<string, unknown>, override: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    const current = merged[key];
    merged[key] = isObject(current) && isObject(value) ? mergeValues(current, value) : value;
  }
  return merged;
}

const ajv = new Ajv({ allErrors: true, formats: { uri: (value: string) => URL.canParse(value) } });
let validateWithJsonSchema: ReturnType<typeof ajv.compile> | undefined;
/** The problems Helm's own check would find, from the values.schema.json file itself. */
function jsonSchemaErrors(values: unknown): string[] {
  validateWithJsonSchema ??= ajv.compile(JSON.parse(readFileSync(schemaFile, 'utf8')) as object);
  return validateWithJsonSchema(values)
    ? []
    : (validateWithJsonSchema.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`);
}

const agentValues = agentChartValues({
  upstreamUrl: 'https://lookout.example',
  agentName: 'eu-west',
  accessToken: 'token-123',
  kubernetes: { enabled: true, interval: '1h' },
  pushTelemetry: { enabled: true, topologyName: 'eu-west' },
}) as Record<string, unknown>;

describe('deploy/helm/lookout', () => {
  it('has the values.schema.json generated from the chart values schema', () => {
    const generated = lookoutChartValuesJsonSchema();
    // LOOKOUT_WRITE_HELM_SCHEMA=1 rewrites the file after the zod schema changed (then run prettier --write on it).
    if (process.env.LOOKOUT_WRITE_HELM_SCHEMA === '1')
      writeFileSync(schemaFile, `${JSON.stringify(generated, null, 2)}\n`);
    expect(
      JSON.parse(readFileSync(schemaFile, 'utf8')),
      'rerun with LOOKOUT_WRITE_HELM_SCHEMA=1 to regenerate',
    ).toEqual(generated);
  });

  it('is named and runs the image as the snippets and the Dockerfile say', () => {
    const chart = parse(readFileSync(path.join(chartDir, 'Chart.yaml'), 'utf8')) as {
      name: string;
      apiVersion: string;
    };
    expect(chart).toMatchObject({ apiVersion: 'v2', name: LOOKOUT_CHART_NAME });
    expect(defaults).toMatchObject({ image: { repository: LOOKOUT_IMAGE_REPOSITORY, tag: '' } });
  });

  it('ships values.yaml that passes its JSON Schema and the zod schema', () => {
    expect(jsonSchemaErrors(defaults)).toEqual([]);
    expect(lookoutChartValuesSchema.safeParse(defaults).error?.issues ?? []).toEqual([]);
  });

  it('accepts the values the agent install snippets set, merged over values.yaml', () => {
    const merged = mergeValues(defaults, agentValues);
    expect(jsonSchemaErrors(merged)).toEqual([]);
    expect(lookoutChartValuesSchema.safeParse(merged).success).toBe(true);
    expect(merged).toMatchObject({ upstream: { host: 'https://lookout.example', username: 'token' } });
  });

  it('refuses misspelt keys, a wrong username and an interval outside the list, as Helm would', () => {
    expect(jsonSchemaErrors(mergeValues(defaults, { upstreem: {} }))).toEqual([' must NOT have additional properties']);
    expect(jsonSchemaErrors(mergeValues(defaults, { upstream: { username: 'admin' } }))).toEqual([
      '/upstream/username must be equal to constant',
    ]);
    expect(jsonSchemaErrors(mergeValues(defaults, { kubernetes: { interval: '3m' } }))).toEqual([
      '/kubernetes/interval must be equal to one of the allowed values',
    ]);
    expect(jsonSchemaErrors(mergeValues(defaults, { upstream: { host: 'not a url' } })).length).toBeGreaterThan(0);
  });

  it('reads in its templates only values that values.yaml defines', () => {
    const missing: string[] = [];
    let references = 0;
    for (const { file, text } of templates) {
      for (const match of text.matchAll(/\$?\.Values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)/g)) {
        references += 1;
        let node: unknown = defaults;
        for (const key of match[1]!.slice(1).split('.')) {
          node = isObject(node) && key in node ? node[key] : undefined;
          if (node === undefined) break;
        }
        if (node === undefined) missing.push(`${file}: .Values${match[1]!}`);
      }
    }
    expect(references).toBeGreaterThan(40);
    expect(missing).toEqual([]);
  });

  it('closes every template block it opens (if, with, range, define)', () => {
    const unbalanced: string[] = [];
    for (const { file, text } of templates) {
      let depth = 0;
      for (const action of text.matchAll(/\{\{-?\s*(\/\*[\s\S]*?\*\/|[^}]*?)\s*-?\}\}/g)) {
        const word = /^(if|with|range|define|end)\b/.exec(action[1]!)?.[1];
        if (word === 'end') depth -= 1;
        else if (word) depth += 1;
        if (depth < 0) unbalanced.push(`${file}: an end without a block`);
      }
      if (depth > 0) unbalanced.push(`${file}: ${depth} block(s) left open`);
    }
    expect(unbalanced).toEqual([]);
  });

  it('includes only named templates that _helpers.tpl defines, and sets the agent environment the server reads', () => {
    const helpers = templates.find((template) => template.file === '_helpers.tpl')!.text;
    const defined = new Set([...helpers.matchAll(/define "([^"]+)"/g)].map((match) => match[1]));
    const used = templates.flatMap(({ text }) => [...text.matchAll(/include "([^"]+)"/g)].map((match) => match[1]));
    expect(used.filter((name) => !defined.has(name))).toEqual([]);
    for (const variable of ['LOOKOUT_UPSTREAM_URL', 'LOOKOUT_AGENT_NAME', 'LOOKOUT_AGENT_TOKEN', 'DATABASE_URL']) {
      expect(helpers).toContain(`- name: ${variable}`);
    }
  });

  it('applies a kubernetes scraper and a telemetry topology that Lookout accepts', () => {
    // resources.yaml with both options on, its few expressions replaced by what Helm would print.
    const expressions: Record<string, string> = {
      '{{ .Release.Namespace }}': 'lookout',
      '{{ printf "@every %s" .Values.kubernetes.interval | quote }}': '"@every 1h"',
      '{{ include "lookout.agentName" . | quote }}': '"eu-west"',
      '{{ include "lookout.topologyName" . | quote }}': '"eu-west"',
    };
    const template = templates.find((entry) => entry.file === 'resources.yaml')!.text;
    const body = template.slice(template.indexOf('resources.yaml: |') + 'resources.yaml: |'.length);
    const unknown: string[] = [];
    const rendered = body
      .split('\n')
      .filter((line) => !/^\s*\{\{-? (if|end)\b.*\}\}\s*$/.test(line))
      .map((line) =>
        line.replace(/\{\{[^}]*\}\}/g, (expression) => {
          if (!(expression in expressions)) unknown.push(expression);
          return expressions[expression] ?? '';
        }),
      )
      .map((line) => line.replace(/^ {4}/, ''))
      .join('\n');
    expect(unknown).toEqual([]);
    const [scraper, topology, ...rest] = parseAllDocuments(rendered).map((document) => document.toJS() as unknown);
    expect(rest).toEqual([]);
    expect(parseScrapeConfigDocument(scraper)).toMatchObject({
      ok: true,
      document: { spec: { schedule: '@every 1h', kubernetes: [{ clusterName: 'eu-west' }] } },
    });
    expect(parseTopologyDocument(topology)).toMatchObject({ ok: true, document: { metadata: { name: 'eu-west' } } });
  });
});
