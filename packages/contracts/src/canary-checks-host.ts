import { z } from 'zod';
import { CANARY_LIMITS } from './canary-constants.js';
import {
  checkBaseShape,
  count,
  durationSchema,
  namedValueSchema,
  requiredString,
  sizeSchema,
  templatableShape,
} from './canary-fields.js';

/** Canary check types that look at the host Lookout runs on: exec (a script) and folder. */

/** `spec.exec[]`: run `script` with bash; exit code 0 passes unless `test` says otherwise. */
export const execCheckSchema = z.strictObject({
  ...checkBaseShape,
  ...templatableShape,
  script: requiredString(CANARY_LIMITS.scriptLength),
  env: z
    .array(namedValueSchema)
    .max(CANARY_LIMITS.headerCount, { error: `must have at most ${CANARY_LIMITS.headerCount} variables` })
    .optional(),
});
/** One exec check. */
export type ExecCheck = z.infer<typeof execCheckSchema>;

/** Which files of a folder count, before the folder tests apply. */
const folderFilterSchema = z.strictObject({
  /** Regular expression the file name must match. */
  regex: requiredString(1024)
    .refine(
      (pattern) => {
        try {
          new RegExp(pattern);
          return true;
        } catch {
          return false;
        }
      },
      { error: 'must be a valid regular expression' },
    )
    .optional(),
  minAge: durationSchema.optional(),
  maxAge: durationSchema.optional(),
  minSize: sizeSchema.optional(),
  maxSize: sizeSchema.optional(),
});

/**
 * `spec.folder[]`: list a local folder and test the files that pass `filter`. `minAge`/`maxAge`
 * bound the age of the newest file, `minSize`/`maxSize` every file's size, `minCount`/`maxCount`
 * the number of files, `availableSize`/`totalSize` the file system.
 */
export const folderCheckSchema = z.strictObject({
  ...checkBaseShape,
  ...templatableShape,
  path: requiredString(4096).refine((path) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(path) && !path.startsWith('\\\\'), {
    error: 'must be a local path; S3, GCS, SMB and SFTP folders are not supported',
  }),
  recursive: z.boolean().optional(),
  filter: folderFilterSchema.optional(),
  minAge: durationSchema.optional(),
  maxAge: durationSchema.optional(),
  minCount: count(10_000_000).optional(),
  maxCount: count(10_000_000).optional(),
  minSize: sizeSchema.optional(),
  maxSize: sizeSchema.optional(),
  availableSize: sizeSchema.optional(),
  totalSize: sizeSchema.optional(),
});
/** One folder check. */
export type FolderCheck = z.infer<typeof folderCheckSchema>;
