/** Style sheets are imported for their effect: esbuild bundles them into the console's one CSS file. */
declare module '*.css';
