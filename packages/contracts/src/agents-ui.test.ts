import { describe, expect, it } from 'vitest';
import { EMPTY_AGENT_FORM, agentFormOf, agentPropertiesOf } from './agents-ui.js';

describe('agent drawer values and stored properties', () => {
  it('starts with Kubernetes and telemetry disabled and a 30m interval (spec 2 section 9)', () => {
    expect(EMPTY_AGENT_FORM).toEqual({
      name: '',
      properties: {},
      kubernetes: { enabled: false, interval: '30m' },
      pushTelemetry: { enabled: false, topologyName: '' },
    });
  });

  it('stores the options beside the labels, as POST /api/agent/generate does, and reads them back', () => {
    const form = {
      name: 'edge',
      properties: { team: 'platform' },
      kubernetes: { enabled: true, interval: '1h' as const },
      pushTelemetry: { enabled: true, topologyName: 'edge' },
    };
    const stored = agentPropertiesOf(form);
    expect(stored).toEqual({
      team: 'platform',
      kubernetes: { enabled: true, interval: '1h' },
      pushTelemetry: { enabled: true, topologyName: 'edge' },
    });
    expect(agentFormOf({ name: 'edge', properties: stored })).toEqual(form);
  });

  it('keeps only text labels and falls back to the defaults for missing or unknown options', () => {
    expect(
      agentFormOf({
        name: 'old',
        properties: { team: 'a', count: 3, kubernetes: { enabled: true, interval: '7m' }, pushTelemetry: 'yes' },
      }),
    ).toEqual({
      name: 'old',
      properties: { team: 'a' },
      kubernetes: { enabled: true, interval: '30m' },
      pushTelemetry: { enabled: false, topologyName: '' },
    });
    expect(agentFormOf({ name: 'bare', properties: null })).toEqual({ ...EMPTY_AGENT_FORM, name: 'bare' });
  });
});
