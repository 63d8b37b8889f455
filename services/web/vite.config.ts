// Vite builds the client into dist/, which the lobby serves at / (services/lobby/webapp.py).
// Relative asset URLs (base "./") keep the build independent of where the lobby mounts it.
import { defineConfig } from "vite";

export default defineConfig({
  base: "./",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: { outDir: "dist", emptyOutDir: true, target: "es2022", sourcemap: false },
});
