import { describe, expect, it } from 'vitest';
import { parseTeamSpecText, teamSpecToText } from './team-spec-fns';

describe('teamSpecToText', () => {
  it('gives empty text for no spec and for an empty one', () => {
    expect(teamSpecToText(null)).toBe('');
    expect(teamSpecToText(undefined)).toBe('');
    expect(teamSpecToText({})).toBe('');
  });

  it('writes a stored spec as YAML that reads back to the same object', () => {
    const spec = { notifications: [{ connection: 'connection://default/slack', properties: { channel: '#sre' } }] };
    const text = teamSpecToText(spec);
    expect(text).toContain('connection: connection://default/slack');
    expect(parseTeamSpecText(text)).toEqual({ ok: true, spec });
  });
});

describe('parseTeamSpecText', () => {
  it('reads empty or blank text as no spec', () => {
    expect(parseTeamSpecText('')).toEqual({ ok: true, spec: null });
    expect(parseTeamSpecText('  \n')).toEqual({ ok: true, spec: null });
    expect(parseTeamSpecText('# only a comment\n')).toEqual({ ok: true, spec: null });
  });

  it('reads JSON as well as YAML', () => {
    expect(parseTeamSpecText('{"responder_clients": {"jira": {"project": "OPS"}}}')).toEqual({
      ok: true,
      spec: { responder_clients: { jira: { project: 'OPS' } } },
    });
  });

  it('reports a syntax error with its place', () => {
    const parsed = parseTeamSpecText('notifications: [unclosed');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problem.kind).toBe('syntax');
    expect(parsed.problem.kind === 'syntax' && parsed.problem.message).toMatch(/line 1/);
  });

  it('refuses a duplicate key rather than keeping one of them silently', () => {
    const parsed = parseTeamSpecText('a: 1\na: 2\n');
    expect(parsed.ok).toBe(false);
  });

  it.each([['- a\n- b\n'], ['just text'], ['42']])('refuses %j, which is not a mapping', (text) => {
    expect(parseTeamSpecText(text)).toEqual({ ok: false, problem: { kind: 'not-object' } });
  });
});
