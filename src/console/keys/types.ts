/** The answers the keys page works with, by the route table's types. */
import type { Answer } from '../api.ts';

export type KeyView = Answer<'listKeys'>['data'][number];
export type CreatedKey = Answer<'createKey'>;
export type ModelView = Answer<'listModels'>['data'][number];
