import {
  CHECK_FORM_BODY_METHODS,
  CHECK_FORM_HTTP_METHODS,
  CHECK_FORM_RESPONSE_CODES,
  type CheckFormType,
} from '@lookout/contracts';
import { formClasses } from '@/components/ui/form-field';
import { KeyValueList } from '@/components/ui/key-value-list';
import { checkFieldPath, isObject, type JsonObject } from '../../lib/canary-draft-fns';
import { DraftNumber, DraftSelect, DraftText, DraftTextArea } from './draft-fields';

export interface CheckFieldsProps {
  type: CheckFormType;
  index: number;
  check: JsonObject;
  errors: ReadonlyMap<string, string>;
  readOnly: boolean;
  /** Applies changes to the check; `undefined` or '' removes a field. */
  onChange: (changes: Record<string, unknown>) => void;
}

const AUTHENTICATION_OPTIONS = [
  { value: 'basic', label: 'Basic' },
  { value: 'ntlm', label: 'NTLM' },
  { value: 'ntlmv2', label: 'NTLMv2' },
] as const;

/** The authentication a check uses, as the form's selector reads it. */
function authenticationOf(check: JsonObject): string {
  if (!isObject(check.authentication)) return '';
  if (check.ntlmv2 === true) return 'ntlmv2';
  if (check.ntlm === true) return 'ntlm';
  return 'basic';
}

/** The inline value of a secret-or-value field. */
function secretValue(field: unknown): string {
  return isObject(field) && typeof field.value === 'string' ? field.value : '';
}

/** A CEL expression block's text. */
function expression(field: unknown): string {
  return isObject(field) && typeof field.expr === 'string' ? field.expr : '';
}

/**
 * The fields of one check of a type with a form (spec 2 section 3): every check's name, icon
 * and description, then http (url, method, body, headers, authentication, response codes,
 * threshold, content, TLS expiry, test, display, transform), exec (script), redis (addr, db),
 * icmp (endpoint, packet count and loss, threshold), tcp (endpoint, threshold) or folder
 * (path, ages, counts, sizes, filter).
 */
export function CheckFields({ type, index, check, errors, readOnly, onChange }: CheckFieldsProps) {
  const error = (...keys: string[]) => errors.get(checkFieldPath(type, index, ...keys));
  const text = (key: string, label: string, options: { required?: boolean; placeholder?: string } = {}) => (
    <DraftText
      label={label}
      value={check[key]}
      onChange={(value) => onChange({ [key]: value })}
      error={error(key)}
      readOnly={readOnly}
      {...options}
    />
  );
  const number = (key: string, label: string, hint?: string) => (
    <DraftNumber
      label={label}
      value={check[key]}
      onChange={(value) => onChange({ [key]: value })}
      error={error(key)}
      readOnly={readOnly}
      {...(hint ? { hint } : {})}
    />
  );
  const expressionField = (key: 'test' | 'display' | 'transform', label: string) => (
    <DraftTextArea
      label={label}
      rows={2}
      value={expression(check[key])}
      onChange={(value) => onChange({ [key]: value.trim() === '' ? undefined : { expr: value } })}
      error={error(key, 'expr') ?? error(key)}
      readOnly={readOnly}
      hint="A CEL expression"
    />
  );

  const common = (
    <>
      {text('name', 'Name', { required: true })}
      {text('icon', 'Icon')}
      <div className="sm:col-span-2">{text('description', 'Description')}</div>
    </>
  );

  switch (type) {
    case 'http': {
      const method = typeof check.method === 'string' ? check.method : '';
      const auth = authenticationOf(check);
      const codes = Array.isArray(check.responseCodes) ? check.responseCodes.filter((c) => typeof c === 'number') : [];
      const headers = Array.isArray(check.headers) ? check.headers.filter(isObject) : [];
      return (
        <div className="grid gap-4 sm:grid-cols-2">
          {common}
          <div className="sm:col-span-2">{text('url', 'URL', { required: true, placeholder: 'https://' })}</div>
          <DraftSelect
            label="Method"
            value={method}
            placeholder="GET"
            options={CHECK_FORM_HTTP_METHODS.filter((m) => m !== 'GET').map((m) => ({ value: m, label: m }))}
            onChange={(value) =>
              onChange({ method: value, ...(CHECK_FORM_BODY_METHODS.includes(value) ? {} : { body: undefined }) })
            }
            error={error('method')}
            readOnly={readOnly}
          />
          {number('thresholdMillis', 'Threshold (ms)', 'Slower responses fail')}
          {CHECK_FORM_BODY_METHODS.includes(method) && (
            <div className="sm:col-span-2">
              <DraftTextArea
                label="Body"
                value={check.body}
                onChange={(value) => onChange({ body: value })}
                error={error('body')}
                readOnly={readOnly}
              />
            </div>
          )}
          <div className="sm:col-span-2">
            <KeyValueList
              label="Headers"
              pairs={headers.map((header) => ({
                key: typeof header.name === 'string' ? header.name : '',
                value: typeof header.value === 'string' ? header.value : '',
              }))}
              onChange={(pairs) =>
                onChange({
                  headers: pairs.length === 0 ? undefined : pairs.map(({ key, value }) => ({ name: key, value })),
                })
              }
              readOnly={readOnly}
              error={error('headers')}
            />
          </div>
          <DraftSelect
            label="Authentication"
            value={auth}
            placeholder="None"
            options={AUTHENTICATION_OPTIONS}
            // Choosing one resets the others' options (spec 2 section 4).
            onChange={(value) =>
              onChange({
                authentication: value === '' ? undefined : { username: { value: '' }, password: { value: '' } },
                ntlm: value === 'ntlm' ? true : undefined,
                ntlmv2: value === 'ntlmv2' ? true : undefined,
              })
            }
            error={error('authentication')}
            readOnly={readOnly}
          />
          {number('maxSSLExpiry', 'Max SSL expiry (days)', 'Fails when the certificate expires sooner')}
          {auth !== '' && (
            <>
              <DraftText
                label="Username"
                value={secretValue(isObject(check.authentication) ? check.authentication.username : undefined)}
                onChange={(value) =>
                  onChange({
                    authentication: {
                      ...(isObject(check.authentication) ? check.authentication : {}),
                      username: { value },
                    },
                  })
                }
                error={error('authentication', 'username')}
                readOnly={readOnly}
              />
              <DraftText
                label="Password"
                value={secretValue(isObject(check.authentication) ? check.authentication.password : undefined)}
                onChange={(value) =>
                  onChange({
                    authentication: {
                      ...(isObject(check.authentication) ? check.authentication : {}),
                      password: { value },
                    },
                  })
                }
                error={error('authentication', 'password')}
                readOnly={readOnly}
              />
            </>
          )}
          <fieldset className="sm:col-span-2">
            <legend className={formClasses.label}>Response codes</legend>
            <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
              {[...new Set([...CHECK_FORM_RESPONSE_CODES, ...codes])].map((code) => (
                <label key={code} className="flex items-center gap-1.5 text-sm text-slate-700">
                  <input
                    type="checkbox"
                    checked={codes.includes(code)}
                    disabled={readOnly}
                    onChange={(event) => {
                      const next = event.target.checked
                        ? [...codes, code].sort((a, b) => a - b)
                        : codes.filter((c) => c !== code);
                      onChange({ responseCodes: next.length === 0 ? undefined : next });
                    }}
                    className="size-4 rounded border-slate-300"
                  />
                  {code}
                </label>
              ))}
            </div>
            {error('responseCodes') && <p className={formClasses.error}>{error('responseCodes')}</p>}
          </fieldset>
          <div className="sm:col-span-2">{text('responseContent', 'Response content', {})}</div>
          {expressionField('test', 'Test')}
          {expressionField('display', 'Display')}
          {expressionField('transform', 'Transform')}
        </div>
      );
    }
    case 'exec':
      return (
        <div className="grid gap-4 sm:grid-cols-2">
          {common}
          <div className="sm:col-span-2">
            <DraftTextArea
              label="Script"
              required
              rows={6}
              value={check.script}
              onChange={(value) => onChange({ script: value })}
              error={error('script')}
              readOnly={readOnly}
            />
          </div>
        </div>
      );
    case 'redis':
      return (
        <div className="grid gap-4 sm:grid-cols-2">
          {common}
          {text('addr', 'Address', { required: true, placeholder: 'redis.internal:6379' })}
          {number('db', 'Database')}
        </div>
      );
    case 'icmp':
      return (
        <div className="grid gap-4 sm:grid-cols-2">
          {common}
          {text('endpoint', 'Endpoint', { required: true, placeholder: 'host name or IP address' })}
          {number('thresholdMillis', 'Threshold (ms)')}
          {number('packetCount', 'Packet count')}
          {number('packetLossThreshold', 'Packet loss threshold (%)')}
        </div>
      );
    case 'tcp':
      return (
        <div className="grid gap-4 sm:grid-cols-2">
          {common}
          {text('endpoint', 'Endpoint', { required: true, placeholder: 'host:port' })}
          {number('thresholdMillis', 'Threshold (ms)')}
        </div>
      );
    case 'folder': {
      const filter = isObject(check.filter) ? check.filter : {};
      return (
        <div className="grid gap-4 sm:grid-cols-2">
          {common}
          <div className="sm:col-span-2">{text('path', 'Path', { required: true, placeholder: '/var/backups' })}</div>
          {text('minAge', 'Min age', { placeholder: '30m' })}
          {text('maxAge', 'Max age', { placeholder: '1d' })}
          {number('minCount', 'Min count')}
          {number('maxCount', 'Max count')}
          {text('minSize', 'Min size', { placeholder: '10KB' })}
          {text('maxSize', 'Max size', { placeholder: '5GB' })}
          {text('availableSize', 'Available size', { placeholder: '1GB' })}
          {text('totalSize', 'Total size', { placeholder: '100GB' })}
          <div className="sm:col-span-2">
            <DraftText
              label="Filter (regular expression)"
              value={filter.regex}
              onChange={(value) => {
                const { regex: _old, ...rest } = filter;
                const next = value === '' ? rest : { ...rest, regex: value };
                onChange({ filter: Object.keys(next).length === 0 ? undefined : next });
              }}
              error={error('filter', 'regex') ?? error('filter')}
              readOnly={readOnly}
              placeholder="\.tar\.gz$"
            />
          </div>
        </div>
      );
    }
  }
}
