/** The statuses the key console explains, as contract 7.2 lists them (the words are i18n/errorWords.ts's). */
export const EXPLAINED_STATUSES = [[401, 'warn'], [403, 'warn'], [404, 'warn'], [429, 'warn'], [503, 'bad']] as const;
