/**
 * Money the SQL stores refuse themselves (issue 11 item 6), whatever path writes it (the gateway, a script,
 * sqlite3 or psql): every balance, total, price and spending limit is whole micro-USD from its least to its
 * ceiling (the bounds the boundaries check, contract billing.ts), so no row can hold what the gateway cannot
 * read back exactly (1.5 stored as REAL; 9e18, past 2^53: "Value is too large to be represented") or a
 * balance below $0. SQLite adds no CHECK to an existing table, so its rules are triggers (as migration 8's,
 * which they replace); PostgreSQL's accounts and keys have had CHECKs from the start, and its BIGINT columns
 * hold only whole numbers, so it adds the prices'. A database whose rows already break a rule is refused
 * (migration.ts refusedRows), naming them, rather than upgraded into a store that can no longer write them.
 */
import { MAX_BALANCE_MICRO, MAX_PRICE_MICRO } from '../../contract/index.ts';

interface MoneyColumn {
  readonly table: 'accounts' | 'models' | 'api_keys';
  readonly column: string;
  readonly min: number;
  readonly max: number;
  readonly nullable: boolean;
  /** A JSON object of such amounts (image prices by size and quality). */
  readonly json?: true;
}

const price = (column: string, nullable: boolean, json?: true): MoneyColumn => ({ table: 'models', column, min: 0, max: MAX_PRICE_MICRO, nullable, json });

const MONEY_COLUMNS: readonly MoneyColumn[] = [
  { table: 'accounts', column: 'balance', min: 0, max: MAX_BALANCE_MICRO, nullable: false },
  // Only ever grows; below 2^53 so that it stays exact.
  { table: 'accounts', column: 'total_spent', min: 0, max: Number.MAX_SAFE_INTEGER, nullable: false },
  price('input_price', false), price('output_price', false), price('image_price', true),
  price('cached_input_price', true), price('cache_write_price', true), price('image_prices', true, true),
  { table: 'api_keys', column: 'spend_limit', min: 1, max: MAX_BALANCE_MICRO, nullable: true },
];

const of = (table: MoneyColumn['table']) => MONEY_COLUMNS.filter((c) => c.table === table);

/** What a column's value must be, for people (the refusal of a database that holds another). */
function ruleOf(c: MoneyColumn): string {
  const range = `from ${c.min} to ${c.max} (micro-USD)`;
  return c.json ? `a JSON object of whole numbers ${range}, or NULL` : `a whole number ${range}${c.nullable ? ', or NULL' : ''}`;
}

/** SQLite: `ref` (a column, or NEW.column in a trigger) breaks its rule. CASE, not OR: json_each must not see malformed JSON. */
function sqliteBreaks(c: MoneyColumn, ref: string): string {
  const bad = c.json
    ? `CASE WHEN NOT json_valid(${ref}) OR json_type(${ref}) <> 'object' THEN 1
        ELSE EXISTS (SELECT 1 FROM json_each(${ref}) AS e WHERE e.type <> 'integer' OR e.value < ${c.min} OR e.value > ${c.max}) END`
    : `typeof(${ref}) <> 'integer' OR ${ref} < ${c.min} OR ${ref} > ${c.max}`;
  return c.nullable ? `(${ref} IS NOT NULL AND (${bad}))` : `(${bad})`;
}

const sqliteAnyBreaks = (columns: readonly MoneyColumn[]) => columns.map((c) => sqliteBreaks(c, `NEW.${c.column}`)).join(' OR ');

/** What a debit that overdraws meets on SQLite (sqliteBatch.ts turns it into OverdrawnBatch, as PostgreSQL's CHECK). */
export const SQLITE_BELOW_ZERO = 'an account balance below $0 is refused';

const ACCOUNTS_REFUSAL = `RAISE(ABORT, 'accounts: balance must be whole micro-USD from 0 to ${MAX_BALANCE_MICRO}, total_spent from 0 to ${Number.MAX_SAFE_INTEGER}')`;
const MODELS_REFUSAL = `RAISE(ABORT, 'models: every price (input_price, output_price, image_price, cached_input_price, cache_write_price, each of image_prices) must be whole micro-USD from 0 to ${MAX_PRICE_MICRO}')`;
const KEYS_REFUSAL = `RAISE(ABORT, 'api_keys: spend_limit must be whole micro-USD from 1 to ${MAX_BALANCE_MICRO}, or NULL')`;
const KEYS_NOT_WHOLE = `NEW.spend_limit IS NOT NULL AND typeof(NEW.spend_limit) <> 'integer'`;

/** The rows of `columns`' tables that break a rule, as migration.ts RefusedRow; `quote` makes a model's name an SQL literal. */
function refusesQuery(columns: readonly MoneyColumn[], breaks: (c: MoneyColumn) => string, quote: string): string {
  return columns.map((c) => {
    const which = c.table === 'models' ? `'name = ' || ${quote}(name)` : `'id = ' || id`;
    return `SELECT '${c.table}' AS tbl, ${which} AS which, '${c.column}' AS col, CAST(${c.column} AS TEXT) AS value, '${ruleOf(c)}' AS rule FROM ${c.table} WHERE ${breaks(c)}`;
  }).join('\n  UNION ALL ');
}

/** SQLite's migration 27: migration 8's triggers replaced by the whole rule, and the models' and keys' added. */
export const SQLITE_MONEY_RULES = {
  refuses: refusesQuery(MONEY_COLUMNS, (c) => sqliteBreaks(c, c.column), 'quote'),
  sql: `
    DROP TRIGGER accounts_money_insert;
    DROP TRIGGER accounts_money_update;
    CREATE TRIGGER accounts_money_insert BEFORE INSERT ON accounts WHEN ${sqliteAnyBreaks(of('accounts'))}
      BEGIN SELECT ${ACCOUNTS_REFUSAL}; END;
    -- An overdrawing debit has its own words: the log writer withholds what the account cannot pay (logChargesWithheld.ts).
    CREATE TRIGGER accounts_below_zero BEFORE UPDATE OF balance ON accounts WHEN NEW.balance < 0
      BEGIN SELECT RAISE(ABORT, '${SQLITE_BELOW_ZERO}'); END;
    CREATE TRIGGER accounts_money_update BEFORE UPDATE OF balance, total_spent ON accounts WHEN NOT (NEW.balance < 0) AND (${sqliteAnyBreaks(of('accounts'))})
      BEGIN SELECT ${ACCOUNTS_REFUSAL}; END;
    CREATE TRIGGER models_money_insert BEFORE INSERT ON models WHEN ${sqliteAnyBreaks(of('models'))}
      BEGIN SELECT ${MODELS_REFUSAL}; END;
    CREATE TRIGGER models_money_update BEFORE UPDATE ON models WHEN ${sqliteAnyBreaks(of('models'))}
      BEGIN SELECT ${MODELS_REFUSAL}; END;
    -- A key's spending limit has had its range as a CHECK since migration 16: what it lacked is being whole.
    CREATE TRIGGER api_keys_money_insert BEFORE INSERT ON api_keys WHEN ${KEYS_NOT_WHOLE}
      BEGIN SELECT ${KEYS_REFUSAL}; END;
    CREATE TRIGGER api_keys_money_update BEFORE UPDATE OF spend_limit ON api_keys WHEN ${KEYS_NOT_WHOLE}
      BEGIN SELECT ${KEYS_REFUSAL}; END;
  `,
};

/**
 * PostgreSQL's migration 20: whether image prices (TEXT, as on SQLite) are a JSON object of whole micro-USD in
 * bounds; false for text that is not JSON, so that the next migration can name such a row instead of failing on it.
 */
export const POSTGRES_PRICE_MAP_CHECK = `
  CREATE FUNCTION mg_price_map_ok(prices TEXT) RETURNS BOOLEAN LANGUAGE plpgsql IMMUTABLE AS $$
    DECLARE j JSONB;
    BEGIN
      j := prices::jsonb;
      RETURN jsonb_typeof(j) = 'object' AND NOT EXISTS (
        SELECT 1 FROM jsonb_each(j) AS e(k, v)
          WHERE CASE WHEN jsonb_typeof(v) = 'number' THEN v::numeric <> trunc(v::numeric) OR v::numeric < 0 OR v::numeric > ${MAX_PRICE_MICRO} ELSE TRUE END);
    EXCEPTION WHEN invalid_text_representation THEN RETURN FALSE;
    END $$;
`;

function postgresBreaks(c: MoneyColumn): string {
  const bad = c.json ? `NOT mg_price_map_ok(${c.column})` : `${c.column} < ${c.min} OR ${c.column} > ${c.max}`;
  return c.nullable ? `(${c.column} IS NOT NULL AND (${bad}))` : `(${bad})`;
}

/** PostgreSQL's migration 21: a CHECK per price (a small table: validated as it is added). */
export const POSTGRES_MONEY_RULES = {
  refuses: refusesQuery(of('models'), postgresBreaks, 'quote_literal'),
  sql: `ALTER TABLE models
    ${of('models').map((c) => `ADD CONSTRAINT models_${c.column}_range CHECK (NOT ${postgresBreaks(c)})`).join(',\n    ')};`,
};
