/** The web console's entry point (bundled by esbuild.js into dist/console, served by the gateway at /). */
import { render } from 'preact';
import { ConsoleApp } from './ConsoleApp.tsx';
import { applyTheme, savedTheme } from './theme.ts';
import './styles/base.css';
import './styles/layout.css';
import './styles/components.css';
import './styles/user.css';

applyTheme(savedTheme());
render(<ConsoleApp />, document.getElementById('app')!);
