/**
 * The smallest OpenAPI v2 document kubectl accepts, in the protobuf encoding it asks for
 * (`/openapi/v2`, gnostic openapi_v2.Document): `swagger: "2.0"` and an info block, no
 * definitions. kubectl validates an object only against a definition of its kind, so with
 * none it validates nothing and leaves validation to this server (the appliers name the
 * wrong field); `apply` then uses JSON merge patches, as for any custom resource.
 */
function varint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  while (rest > 0x7f) {
    bytes.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

/** A length-delimited protobuf field (strings and messages). */
const field = (number: number, bytes: Buffer) =>
  Buffer.concat([varint((number << 3) | 2), varint(bytes.length), bytes]);

export function openApiV2Protobuf(version: string): Buffer {
  const info = Buffer.concat([field(1, Buffer.from('Lookout')), field(2, Buffer.from(version))]);
  return Buffer.concat([field(1, Buffer.from('2.0')), field(2, info)]);
}

/** The same document as JSON, for clients that ask for JSON. */
export const openApiV2Json = (version: string) => ({ swagger: '2.0', info: { title: 'Lookout', version }, paths: {} });
