// Types of what esbuild.js exports (bench/run.ts bundles its gateway child with the CLI's options; the
// console's tests build the console).
import type { BuildOptions } from 'esbuild';

export declare const cliOptions: BuildOptions;
export declare const CONSOLE_DIR: string;
export declare function buildConsole(): Promise<{ js: string; css: string }>;
