import { describe, expect, it } from 'vitest';
import { csrfNode, inputNode, passwordLoginNodes, textNode, uiText } from '@/test/identity-fixtures';
import { lookupSecretsOf, partitionNodes, visibleGroups } from './ui-node-fns';

const names = (nodes: { attributes: { node_type: string } }[]) =>
  nodes.map((node) =>
    'name' in node.attributes ? node.attributes.name : 'id' in node.attributes ? node.attributes.id : '',
  );

describe('partitionNodes', () => {
  it('puts the identifier with the password and gives social sign-in its own form with the CSRF token', () => {
    const nodes = [
      csrfNode(),
      ...passwordLoginNodes(),
      inputNode('oidc', 'provider', 'submit', { value: 'github', label: 'GitHub' }),
    ];
    const forms = partitionNodes(nodes);
    expect(forms.map((form) => form.group)).toEqual(['password', 'oidc']);
    expect(names(forms[0]?.nodes ?? [])).toEqual(['csrf_token', 'identifier', 'password', 'method']);
    expect(names(forms[1]?.nodes ?? [])).toEqual(['csrf_token', 'provider']);
  });

  it('renders a flow with default nodes only as one form', () => {
    const forms = partitionNodes([csrfNode(), inputNode('default', 'identifier', 'text')]);
    expect(forms).toEqual([{ group: 'default', nodes: expect.any(Array) }]);
  });

  it('keeps only the groups asked for', () => {
    const nodes = [
      csrfNode(),
      inputNode('totp', 'totp_code', 'text'),
      inputNode('webauthn', 'webauthn_register', 'hidden'),
    ];
    expect(partitionNodes(nodes, ['webauthn']).map((form) => form.group)).toEqual(['webauthn']);
    expect(partitionNodes(nodes, ['profile'])).toEqual([]);
  });
});

describe('visibleGroups', () => {
  it('lists the groups with something to show, ignoring hidden-only groups and default', () => {
    expect(
      visibleGroups([
        csrfNode(),
        inputNode('lookup_secret', 'method', 'hidden', { value: 'lookup_secret' }),
        inputNode('totp', 'totp_code', 'text'),
        inputNode('password', 'password', 'password'),
      ]),
    ).toEqual(['totp', 'password']);
  });
});

describe('lookupSecretsOf', () => {
  it('reads backup codes from the text context, and nothing from a plain text', () => {
    const list = uiText(1050015, 'a, b', 'info', { secrets: [uiText(1050009, 'a'), uiText(1050009, 'b')] });
    expect(lookupSecretsOf(list)).toEqual(['a', 'b']);
    expect(lookupSecretsOf(uiText(1050006, 'SECRET'))).toBeUndefined();
    expect(textNode('totp', 'x', uiText(1, 'x')).type).toBe('text');
  });
});
