import net from 'node:net';
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';

/**
 * The login of Microsoft SQL Server's TDS protocol ([MS-TDS], the published specification),
 * as far as a client's connect goes: PRELOGIN (answered "encryption not supported", or inside
 * TLS for TDS 8.0 "strict" when given a certificate), LOGIN7 (the password de-obfuscated and
 * checked: LOGINACK, or SQL Server's error 18456 "Login failed for user '…'."), and any SQL
 * batch (the client's session settings) answered with DONE. There is no SQL Server on this
 * machine; this is what the sql_server tester is tested against.
 */
export type TdsServer = {
  port: number;
  /** Each login: the user, the database asked for, and whether it was accepted. */
  logins: { user: string; database: string; accepted: boolean }[];
  close: () => Promise<void>;
};

const PACKET = { SQL_BATCH: 0x01, TABULAR_RESULT: 0x04, LOGIN7: 0x10, PRELOGIN: 0x12 } as const;

function packet(type: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt8(type, 0);
  header.writeUInt8(0x01, 1); // end of message
  header.writeUInt16BE(payload.length + 8, 2);
  header.writeUInt8(1, 6); // packet id
  return Buffer.concat([header, payload]);
}

const ucs2 = (text: string) => Buffer.from(text, 'utf16le');
/** B_VARCHAR: a one-byte length in characters, then UCS-2. */
const bVarChar = (text: string) => Buffer.concat([Buffer.from([text.length]), ucs2(text)]);
/** US_VARCHAR: a two-byte length in characters, then UCS-2. */
function usVarChar(text: string): Buffer {
  const length = Buffer.alloc(2);
  length.writeUInt16LE(text.length);
  return Buffer.concat([length, ucs2(text)]);
}
function token(type: number, body: Buffer): Buffer {
  const header = Buffer.alloc(3);
  header.writeUInt8(type, 0);
  header.writeUInt16LE(body.length, 1);
  return Buffer.concat([header, body]);
}
function done(status: number): Buffer {
  const body = Buffer.alloc(13);
  body.writeUInt8(0xfd, 0);
  body.writeUInt16LE(status, 1); // 0x02: DONE_ERROR
  return body; // CurCmd 0, RowCount 0 (8 bytes)
}

function preloginAnswer(): Buffer {
  // Options: VERSION (6 bytes), ENCRYPTION (1: 0x02 not supported), INSTOPT (1), THREADID (4), MARS (1).
  const options = [
    [0x00, Buffer.from([16, 0, 0x10, 0x00, 0, 0])],
    [0x01, Buffer.from([0x02])],
    [0x02, Buffer.from([0x00])],
    [0x03, Buffer.alloc(4)],
    [0x04, Buffer.from([0x00])],
  ] as const;
  const tableSize = options.length * 5 + 1;
  const table = Buffer.alloc(tableSize);
  let offset = tableSize;
  options.forEach(([id, data], index) => {
    table.writeUInt8(id, index * 5);
    table.writeUInt16BE(offset, index * 5 + 1);
    table.writeUInt16BE(data.length, index * 5 + 3);
    offset += data.length;
  });
  table.writeUInt8(0xff, tableSize - 1);
  return Buffer.concat([table, ...options.map(([, data]) => data)]);
}

/** A LOGIN7 field: its offset and length (in characters) sit at `at` in the fixed part. */
function field(login: Buffer, at: number): Buffer {
  const offset = login.readUInt16LE(at);
  const length = login.readUInt16LE(at + 2);
  return login.subarray(offset, offset + length * 2);
}

/** The password as the client obfuscated it: each byte's nibbles swapped, then XOR 0xA5. */
function deobfuscate(bytes: Buffer): string {
  const plain = Buffer.from(
    bytes.map((byte) => {
      const b = byte ^ 0xa5;
      return ((b & 0x0f) << 4) | (b >> 4);
    }),
  );
  return plain.toString('utf16le');
}

function loginAnswer(accepted: boolean, user: string, database: string): Buffer {
  if (!accepted) {
    const number = Buffer.alloc(6);
    number.writeUInt32LE(18456, 0);
    number.writeUInt8(1, 4); // state
    number.writeUInt8(14, 5); // class
    const line = Buffer.alloc(4);
    line.writeUInt32LE(1);
    const error = token(
      0xaa,
      Buffer.concat([
        number,
        usVarChar(`Login failed for user '${user}'.`),
        bVarChar('lookout-tds-test'),
        bVarChar(''),
        line,
      ]),
    );
    return Buffer.concat([error, done(0x02)]);
  }
  const version = Buffer.alloc(5);
  version.writeUInt8(1, 0); // interface: T-SQL
  version.writeUInt32BE(0x74000004, 1); // TDS 7.4
  const loginAck = token(
    0xad,
    Buffer.concat([version, bVarChar('Microsoft SQL Server'), Buffer.from([16, 0, 0x10, 0x00])]),
  );
  const envChange = token(0xe3, Buffer.concat([Buffer.from([1]), bVarChar(database || 'master'), bVarChar('master')]));
  return Buffer.concat([loginAck, envChange, done(0)]);
}

export function startTdsServer(options: {
  user: string;
  password: string;
  /** With a certificate, TDS 8.0: TLS first (ALPN tds/8.0), then PRELOGIN inside it. */
  tls?: { cert: string; key: string };
}): Promise<TdsServer> {
  const logins: TdsServer['logins'] = [];
  const sockets = new Set<net.Socket>();
  const serve = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffered = Buffer.alloc(0);
    let message: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 8 && buffered.length >= buffered.readUInt16BE(2)) {
        const length = buffered.readUInt16BE(2);
        const type = buffered.readUInt8(0);
        const last = (buffered.readUInt8(1) & 0x01) === 0x01;
        message.push(buffered.subarray(8, length));
        buffered = buffered.subarray(length);
        if (!last) continue;
        const payload = Buffer.concat(message);
        message = [];
        if (type === PACKET.PRELOGIN) socket.write(packet(PACKET.TABULAR_RESULT, preloginAnswer()));
        else if (type === PACKET.LOGIN7) {
          const user = field(payload, 40).toString('utf16le');
          const password = deobfuscate(field(payload, 44));
          const database = field(payload, 68).toString('utf16le');
          const accepted = user === options.user && password === options.password;
          logins.push({ user, database, accepted });
          socket.write(packet(PACKET.TABULAR_RESULT, loginAnswer(accepted, user, database)));
        } else if (type === PACKET.SQL_BATCH) socket.write(packet(PACKET.TABULAR_RESULT, done(0)));
        else socket.destroy();
      }
    });
  };
  const server = options.tls
    ? tls.createServer({ ...options.tls, ALPNProtocols: ['tds/8.0'] }, serve)
    : net.createServer(serve);
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        logins,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      }),
    );
  });
}
