// Types of what esbuild.js exports (bench/run.ts bundles its gateway child with the CLI's options).
import type { BuildOptions } from 'esbuild';

export declare const cliOptions: BuildOptions;
