// The web table's build: one page, its script and styles into dist/, which `tavli serve` serves
// (dist/ is committed, so that serving needs no Node.js; a test checks it is the build of src/).
import { defineConfig } from "vitest/config";

export default defineConfig({
  base: "/",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: false,
    target: "es2022",
  },
  server: {
    // The presets are the engine's data file (engine/presets.json), outside this folder.
    fs: { allow: [".", "../../engine/presets.json"] },
    // `npm run dev` beside `tavli serve`: the API calls go to the server's web port.
    proxy: { "/tavli.v1.": "http://127.0.0.1:8080" },
  },
  test: {
    environment: "node",
    include: ["src/**/*.test.ts"],
  },
});
