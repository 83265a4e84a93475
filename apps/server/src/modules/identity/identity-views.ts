import type { CredentialRow } from './credentials-repository.js';
import type { AddressRow, IdentityRow } from './identities-repository.js';
import type { DeviceRow, SessionRow } from './sessions-repository.js';

/** Kratos JSON shapes of identities and sessions, built from rows. */

export type IdentityJson = {
  id: string;
  schema_id: string;
  schema_url: string;
  state: 'active' | 'inactive';
  state_changed_at: string;
  traits: unknown;
  verifiable_addresses: unknown[];
  recovery_addresses: unknown[];
  metadata_public: unknown;
  created_at: string;
  updated_at: string;
  organization_id: null;
  credentials?: Record<string, unknown>;
  metadata_admin?: unknown;
};

export function identityJson(
  identity: IdentityRow,
  options: {
    baseUrl: string;
    verifiable: AddressRow[];
    recovery: AddressRow[];
    credentials?: CredentialRow[];
    admin?: boolean;
  },
): IdentityJson {
  const json: IdentityJson = {
    id: identity.id,
    schema_id: identity.schema_id,
    schema_url: `${options.baseUrl}/schemas/${Buffer.from(identity.schema_id).toString('base64url')}`,
    state: identity.state,
    state_changed_at: identity.state_changed_at.toISOString(),
    traits: identity.traits,
    verifiable_addresses: options.verifiable.map((address) => ({
      id: address.id,
      value: address.value,
      verified: address.verified ?? false,
      via: address.via,
      status: address.status ?? 'pending',
      ...(address.verified_at ? { verified_at: address.verified_at.toISOString() } : {}),
      created_at: address.created_at.toISOString(),
      updated_at: address.updated_at.toISOString(),
    })),
    recovery_addresses: options.recovery.map((address) => ({
      id: address.id,
      value: address.value,
      via: address.via,
      created_at: address.created_at.toISOString(),
      updated_at: address.updated_at.toISOString(),
    })),
    metadata_public: identity.metadata_public ?? null,
    created_at: identity.created_at.toISOString(),
    updated_at: identity.updated_at.toISOString(),
    organization_id: null,
  };
  if (options.admin) {
    json.metadata_admin = identity.metadata_admin ?? null;
    // Credentials are listed by type and identifiers only: no hash, seed or code ever leaves.
    json.credentials = Object.fromEntries(
      (options.credentials ?? []).map((credential) => [
        credential.type,
        {
          type: credential.type,
          identifiers: credential.identifiers,
          version: credential.version,
          created_at: credential.created_at.toISOString(),
          updated_at: credential.updated_at.toISOString(),
        },
      ]),
    );
  }
  return json;
}

export type SessionJson = {
  id: string;
  active: boolean;
  expires_at: string;
  authenticated_at: string;
  authenticator_assurance_level: 'aal1' | 'aal2';
  authentication_methods: unknown[];
  issued_at: string;
  identity?: IdentityJson;
  devices: unknown[];
};

export function sessionJson(
  session: SessionRow,
  options: { identity?: IdentityJson; devices: DeviceRow[]; now: Date },
): SessionJson {
  return {
    id: session.id,
    active: session.active && session.expires_at > options.now,
    expires_at: session.expires_at.toISOString(),
    authenticated_at: session.authenticated_at.toISOString(),
    authenticator_assurance_level: session.aal,
    authentication_methods: session.authentication_methods,
    issued_at: session.issued_at.toISOString(),
    ...(options.identity ? { identity: options.identity } : {}),
    devices: options.devices.map((device) => ({
      id: device.id,
      ...(device.ip_address ? { ip_address: device.ip_address } : {}),
      ...(device.user_agent ? { user_agent: device.user_agent } : {}),
      ...(device.location ? { location: device.location } : {}),
    })),
  };
}

/** The identity schema of `default`: email plus first and last name. */
export const DEFAULT_IDENTITY_SCHEMA = {
  $id: 'https://lookout.local/schemas/default/identity.schema.json',
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Person',
  type: 'object',
  properties: {
    traits: {
      type: 'object',
      properties: {
        email: {
          type: 'string',
          format: 'email',
          title: 'E-Mail',
          maxLength: 320,
          'ory.sh/kratos': {
            credentials: {
              password: { identifier: true },
              totp: { account_name: true },
              webauthn: { identifier: true },
            },
            verification: { via: 'email' },
            recovery: { via: 'email' },
          },
        },
        name: {
          type: 'object',
          properties: {
            first: { type: 'string', title: 'First Name', maxLength: 255 },
            last: { type: 'string', title: 'Last Name', maxLength: 255 },
          },
        },
      },
      required: ['email'],
      additionalProperties: false,
    },
  },
} as const;
