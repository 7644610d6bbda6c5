import { readFile, stat } from 'node:fs/promises';
import { renderTemplate } from '../computed-fields/template-engine.js';
import type { Row, Rule } from '../../../core/registry/types.js';

/** A failure to read a secret's value, in the reference's message shape (`SecretError.__str__`). */
export class SecretError extends Error {
  constructor(kind: 'SecretError' | 'SecretParametersError' | 'SecretValueNotFoundError' | 'SecretProviderError', secret: Row, provider: string, message: string) {
    super(`${kind}: Secret "${String(secret.name)}" (provider "${provider}"): ${message}`);
  }
}

/** A secrets provider: how a secret's parameters turn into its value. */
type SecretsProvider = {
  /** Display name, as the reference's. */
  name: string;
  /** The reference's provider class name, used in error messages. */
  className: string;
  /** Parameter checks on save (the reference's ParametersForm.clean), as `__all__` messages. */
  checkParameters?: (parameters: Record<string, unknown>) => string | undefined;
  getValue: (secret: Row, parameters: Record<string, string>) => Promise<string>;
};

const ENVIRONMENT_VARIABLE: SecretsProvider = {
  name: 'Environment Variable',
  className: 'EnvironmentVariableSecretsProvider',
  async getValue(secret, parameters) {
    if (!('variable' in parameters)) throw new SecretError('SecretParametersError', secret, this.className, 'The "variable" parameter is mandatory!');
    const value = process.env[parameters.variable];
    if (value === undefined) throw new SecretError('SecretValueNotFoundError', secret, this.className, `Undefined environment variable "${parameters.variable}"!`);
    return value;
  },
};

/** True for a regular file (not a directory, not missing). */
async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

const TEXT_FILE: SecretsProvider = {
  name: 'Text File',
  className: 'TextFileSecretsProvider',
  checkParameters(parameters) {
    const path = typeof parameters.path === 'string' ? parameters.path : '';
    if (!path.startsWith('/')) return 'Path must be an absolute path, not a relative one';
    if (path.includes('..')) return 'Illegal character sequence in path';
    return undefined;
  },
  /** The file's contents without leading and trailing whitespace. */
  async getValue(secret, parameters) {
    if (!('path' in parameters)) throw new SecretError('SecretParametersError', secret, this.className, 'The "path" parameter is mandatory!');
    if (!(await isFile(parameters.path))) throw new SecretError('SecretValueNotFoundError', secret, this.className, `File "${parameters.path}" not found!`);
    return (await readFile(parameters.path, 'utf8')).trim();
  },
};

/** The providers this service has, by slug (the reference's built-in two). */
export const SECRETS_PROVIDERS: ReadonlyMap<string, SecretsProvider> = new Map([
  ['environment-variable', ENVIRONMENT_VARIABLE],
  ['text-file', TEXT_FILE],
]);

function parametersOf(secret: Row): Record<string, unknown> {
  const p = secret.parameters;
  return p && typeof p === 'object' && !Array.isArray(p) ? (p as Record<string, unknown>) : {};
}

/** Each parameter rendered as a template with `obj` in context (none for a plain check). */
function renderParameters(secret: Row, provider: SecretsProvider, obj: unknown): Record<string, string> {
  try {
    return Object.fromEntries(Object.entries(parametersOf(secret)).map(([key, value]) => [key, renderTemplate(String(value), { obj })]));
  } catch (err) {
    throw new SecretError('SecretParametersError', secret, provider.className, err instanceof Error ? err.message : String(err));
  }
}

/** The secret's value (reference `Secret.get_value`); throws SecretError when it cannot be read. */
export async function getSecretValue(secret: Row, obj: unknown = null): Promise<string> {
  const slug = String(secret.provider);
  const provider = SECRETS_PROVIDERS.get(slug);
  if (!provider) throw new SecretError('SecretProviderError', secret, slug, `No registered provider "${slug}" is available`);
  const parameters = renderParameters(secret, provider, obj);
  try {
    return await provider.getValue(secret, parameters);
  } catch (err) {
    if (err instanceof SecretError) throw err;
    throw new SecretError('SecretError', secret, provider.className, err instanceof Error ? err.message : String(err));
  }
}

/** On save: a known provider, and parameters its form accepts (reference `Secret.clean`). */
export const secretProviderIsKnown: Rule = ({ row }): Record<string, string> | undefined => {
  const provider = SECRETS_PROVIDERS.get(String(row.provider));
  if (!provider) return { provider: `No registered provider "${String(row.provider)}" is available` };
  const message = provider.checkParameters?.(parametersOf(row));
  if (message) return { __all__: message };
};
