/** Injected by esbuild.config.mjs from addon.config.json. */
declare const ADDON_DEFAULT_SERVICE_URL: string;
/** Injected by esbuild.config.mjs from tools/build/scopes.cjs: every scope of the manifest, its consent line and the feature (`need`) that asks for it. */
declare const ADDON_SCOPES: ReadonlyArray<{ scope: string; consent: string; need: string }>;
