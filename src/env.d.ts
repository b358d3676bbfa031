/** Injected by esbuild.config.mjs from addon.config.json. */
declare const ADDON_DEFAULT_SERVICE_URL: string;
