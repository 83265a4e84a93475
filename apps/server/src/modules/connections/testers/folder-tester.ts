import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ConnectionTester } from './tester.js';
import { abortError } from './abortable.js';
import { required } from './service-api.js';

/**
 * Folder: the notification writes files into a folder of the Lookout server, so the test
 * checks that the path is a folder there and that Lookout may write into it. Nothing is
 * written.
 */
export const testFolderConnection: ConnectionTester = async (connection, { signal }) => {
  const folder = required(connection, connection.properties.path, 'path');
  if (!path.isAbsolute(folder)) throw new Error(`The folder '${folder}' is not an absolute path`);
  if (signal.aborted) throw abortError(signal);
  const info = await stat(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw new Error(`The folder '${folder}' does not exist on the Lookout server`);
    throw new Error(`The folder '${folder}' cannot be read: ${error.message}`);
  });
  if (!info.isDirectory()) throw new Error(`'${folder}' is not a folder`);
  await access(folder, constants.W_OK | constants.X_OK).catch(() => {
    throw new Error(`The folder '${folder}' is not writable by the Lookout server`);
  });
};
