export * from './errors.ts';
export * from './chat.ts';
export * from './models.ts';
export * from './billing.ts';
export * from './status.ts';
export * from './version.ts';
export * from './sse.ts';
