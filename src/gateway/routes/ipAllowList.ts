/**
 * A key's IP allow-list as node:net's BlockList (which matches IPv4 addresses written as IPv6, ::ffff:a.b.c.d,
 * against IPv4 rules), built once per key record: a reload of the catalog brings new records, so a changed
 * list is used from the next request on.
 */
import { BlockList } from 'node:net';
import { parseAllowEntry } from '../store/keySettings.ts';
import type { KeyRecord } from '../store/types.ts';

export interface AllowList {
  allows(address: string): boolean;
}

const lists = new WeakMap<KeyRecord, AllowList>();

export function allowListOf(key: KeyRecord): AllowList {
  let list = lists.get(key);
  if (!list) lists.set(key, (list = buildAllowList(key.allowIps ?? [])));
  return list;
}

/** Entries already accepted by the store (keySettings.ts parseAllowList). */
export function buildAllowList(entries: readonly string[]): AllowList {
  const blocks = new BlockList();
  for (const text of entries) {
    const entry = parseAllowEntry(text);
    blocks.addSubnet(entry.address, entry.prefix, entry.family);
  }
  return {
    allows(address) {
      const family = address.includes(':') ? 'ipv6' : 'ipv4';
      try {
        return blocks.check(address, family);
      } catch {
        return false;
      }
    },
  };
}
