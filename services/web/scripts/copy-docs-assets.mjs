// Copies the API documentation pages' assets (Swagger UI, ReDoc) from their npm packages into
// dist/docs-assets, so /docs and /redoc work with no network (FastAPI points at them: webapp.py).
import { copyFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const target = join(here, "..", "dist", "docs-assets");
const files = [
  ["swagger-ui-dist", "swagger-ui-bundle.js"],
  ["swagger-ui-dist", "swagger-ui.css"],
  ["swagger-ui-dist", "favicon-32x32.png"],
  ["redoc", "bundles/redoc.standalone.js"],
];
mkdirSync(target, { recursive: true });
for (const [pkg, file] of files) {
  const root = dirname(require.resolve(`${pkg}/package.json`));
  copyFileSync(join(root, file), join(target, file.split("/").pop()));
}
console.log(`docs assets copied to ${target}`);
