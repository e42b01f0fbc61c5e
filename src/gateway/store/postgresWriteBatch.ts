/**
 * `mg_write_batch` (migration 13): everything a log batch's transaction did in twelve round trips (BEGIN,
 * the batch id, the accounts' lock, debits, leases, key usage and last use, the tally, the log order lock
 * and the rows, COMMIT), in the same order and with the same locks, in one call that is its own
 * transaction. postgresBatch.ts calls it and says why each part is there.
 */
export const WRITE_BATCH_FUNCTION = `
  CREATE FUNCTION mg_write_batch(
    batch_id UUID, writer UUID,
    debit_ids BIGINT[], debit_amounts BIGINT[],
    usage_keys BIGINT[], usage_days INT[], usage_requests BIGINT[], usage_spent BIGINT[],
    used_ids BIGINT[], used_times BIGINT[],
    tally_accounts BIGINT[], tally_hours INT[], tally_models TEXT[], tally_statuses INT[], tally_errors TEXT[],
    tally_requests BIGINT[], tally_costs BIGINT[], tally_prompt BIGINT[], tally_completion BIGINT[],
    latency_accounts BIGINT[], latency_hours INT[], latency_buckets INT[], latency_requests BIGINT[],
    log_time BIGINT[], log_request_id TEXT[], log_method TEXT[], log_path TEXT[], log_account_id BIGINT[], log_key_id BIGINT[],
    log_key_name TEXT[], log_model TEXT[], log_channel TEXT[], log_status INT[], log_error_code TEXT[], log_prompt_tokens BIGINT[],
    log_completion_tokens BIGINT[], log_usage_estimated BOOLEAN[], log_cost BIGINT[], log_latency_ms FLOAT8[], log_first_byte_ms FLOAT8[],
    log_stream BOOLEAN[], log_completion_cap INT[], log_attempts TEXT[], log_upstream_model TEXT[], log_user_agent TEXT[], log_client_ip TEXT[]
  ) RETURNS BOOLEAN LANGUAGE plpgsql AS $fn$
  BEGIN
    -- A retry of a batch that did land (its answer was lost): nothing more to do.
    IF batch_id IS NOT NULL THEN
      INSERT INTO applied_batches (id) VALUES (batch_id) ON CONFLICT (id) DO NOTHING;
      IF NOT FOUND THEN RETURN FALSE; END IF;
    END IF;
    -- The leases' locking rule (postgresLeases.ts): the accounts first, in id order; the next statement sees the leases as committed then.
    PERFORM 1 FROM accounts WHERE id = ANY (debit_ids) ORDER BY id FOR UPDATE;
    -- The money and the tallies in one statement (each statement is a cost of its own: ~300 us a batch less than one each).
    -- Its parts touch different tables, none of which another kind of transaction locks together with a second one.
    WITH d AS (
      SELECT u.id, u.amount, LEAST(u.amount, COALESCE(l.amount, 0)) AS from_lease
        FROM unnest(debit_ids, debit_amounts) AS u(id, amount) LEFT JOIN leases l ON l.account_id = u.id AND l.instance = writer
    ), debited AS (
      UPDATE accounts AS a SET balance = a.balance - d.amount, leased = a.leased - d.from_lease, total_spent = a.total_spent + d.amount
        FROM d WHERE a.id = d.id
    ), spent_leases AS (
      UPDATE leases AS l SET amount = l.amount - d.from_lease FROM d WHERE l.instance = writer AND l.account_id = d.id AND d.from_lease > 0
    ), usage AS (
      INSERT INTO key_usage (key_id, day, requests, spent) SELECT * FROM unnest(usage_keys, usage_days, usage_requests, usage_spent)
        ON CONFLICT (key_id, day) DO UPDATE SET requests = key_usage.requests + excluded.requests, spent = key_usage.spent + excluded.spent
    ), tally AS (
      INSERT INTO usage_hourly (account_id, hour, model, status, error_code, requests, cost, prompt_tokens, completion_tokens)
        SELECT * FROM unnest(tally_accounts, tally_hours, tally_models, tally_statuses, tally_errors, tally_requests, tally_costs, tally_prompt, tally_completion)
        ON CONFLICT (account_id, hour, model, status, error_code) DO UPDATE SET requests = usage_hourly.requests + excluded.requests,
          cost = usage_hourly.cost + excluded.cost, prompt_tokens = usage_hourly.prompt_tokens + excluded.prompt_tokens,
          completion_tokens = usage_hourly.completion_tokens + excluded.completion_tokens
    )
    INSERT INTO latency_hourly (account_id, hour, bucket, requests) SELECT * FROM unnest(latency_accounts, latency_hours, latency_buckets, latency_requests)
      ON CONFLICT (account_id, hour, bucket) DO UPDATE SET requests = latency_hourly.requests + excluded.requests;
    -- Keys' last use after their usage (a key's deletion takes key_usage, then api_keys: the same order).
    IF cardinality(log_time) = 0 THEN
      UPDATE api_keys AS k SET last_used_at = GREATEST(COALESCE(k.last_used_at, 0), u.time) FROM unnest(used_ids, used_times) AS u(id, time) WHERE k.id = u.id;
      RETURN TRUE;
    END IF;
    -- Log ids in commit order (postgresBatch.ts): "MGlo" (0x4d476c6f), held until this call's transaction ends.
    PERFORM pg_advisory_xact_lock(1296526447);
    WITH used AS (
      UPDATE api_keys AS k SET last_used_at = GREATEST(COALESCE(k.last_used_at, 0), u.time) FROM unnest(used_ids, used_times) AS u(id, time) WHERE k.id = u.id
    )
    INSERT INTO request_logs (time, request_id, method, path, account_id, key_id, key_name, model, channel, status, error_code, prompt_tokens,
        completion_tokens, usage_estimated, cost, latency_ms, first_byte_ms, stream, completion_cap, attempts, upstream_model, user_agent, client_ip)
      SELECT * FROM unnest(log_time, log_request_id, log_method, log_path, log_account_id, log_key_id, log_key_name, log_model, log_channel,
        log_status, log_error_code, log_prompt_tokens, log_completion_tokens, log_usage_estimated, log_cost, log_latency_ms, log_first_byte_ms,
        log_stream, log_completion_cap, log_attempts, log_upstream_model, log_user_agent, log_client_ip);
    RETURN TRUE;
  END
  $fn$;
`;
