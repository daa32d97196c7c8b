/** The app feature's public surface: the config every screen reads and the router's root. */
export { AppRoot } from './components/app-root';
export { refreshAppConfig } from './api/get-app-config';
