/**
 * Channel keys at rest: sealed with AES-256-GCM before they reach the database, opened when read.
 * The key is kept apart from the database: MODEL_GATEWAY_SECRET_KEY (32 bytes, base64 or hex), else
 * DATA/secret.key, created 0600 on first use. A backup of the database alone holds no usable
 * channel key; restoring one elsewhere needs the same secret key.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { StoreError } from './types.ts';

export const SECRET_KEY_FILE = 'secret.key';
export const SECRET_KEY_ENV = 'MODEL_GATEWAY_SECRET_KEY';
const PREFIX = 'v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBox {
  readonly #key: Buffer;
  /** Where the key came from, for messages. */
  readonly source: string;

  constructor(key: Buffer, source: string) {
    if (key.length !== 32) throw new StoreError('invalid', `the secret key from ${source} must be 32 bytes (base64 or hex), got ${key.length}`);
    this.#key = key;
    this.source = source;
  }

  /**
   * The environment's box, or null: on PostgreSQL the key cannot live in one machine's data folder,
   * since every instance (and the CLI, wherever it runs) must open the same channel keys.
   */
  static fromEnv(env: NodeJS.ProcessEnv = process.env): SecretBox | null {
    const fromEnv = env[SECRET_KEY_ENV]?.trim();
    return fromEnv ? new SecretBox(decodeKey(fromEnv), SECRET_KEY_ENV) : null;
  }

  /** The folder's box: the environment's key, else the folder's key file (created when missing, unless `create` is false). */
  static forFolder(dataDir: string, env: NodeJS.ProcessEnv = process.env, { create = true } = {}): SecretBox {
    const fromEnv = SecretBox.fromEnv(env);
    if (fromEnv) return fromEnv;
    const file = join(dataDir, SECRET_KEY_FILE);
    // A read-only folder without its key (create false): nothing sealed can be opened, as in a folder restored without it.
    if (!create && !existsSync(file)) return new SecretBox(randomBytes(32), `${file} (missing)`);
    if (!existsSync(file)) {
      try {
        const fd = openSync(file, 'wx', 0o600);
        writeSync(fd, `${randomBytes(32).toString('base64')}\n`);
        closeSync(fd);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    return new SecretBox(decodeKey(readFileSync(file, 'utf8').trim()), file);
  }

  seal(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  /** The plain text of a sealed value; `what` names it when it cannot be opened. */
  open(sealed: string, what: string): string {
    const bytes = Buffer.from(sealed.slice(PREFIX.length), 'base64');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, bytes.subarray(0, IV_BYTES));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new StoreError('invalid', `cannot open ${what}: it was sealed with another secret key than ${this.source}. Use the key it was sealed with, or add the channel again.`);
    }
  }
}

/** Whether a stored value is sealed (older databases hold channel keys in plain text until they are sealed on open). */
export function isSealed(value: string): boolean {
  return value.startsWith(PREFIX);
}

function decodeKey(text: string): Buffer {
  return /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
}
