/** Mocha root hook (loaded by .mocharc.json): the shared test PostgreSQL server stops after the last test. */
import type { Context } from 'mocha';
import { stopPostgres } from './postgres.ts';

export const mochaHooks = {
  async afterAll(this: Context): Promise<void> {
    // Its shutdown checkpoint writes what the whole run left dirty: on a busy machine that took over the
    // default 20 s once (a CI run red after every test had passed).
    this.timeout(120000);
    await stopPostgres();
  },
};
