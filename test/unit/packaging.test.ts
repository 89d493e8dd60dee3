/**
 * Packaging configuration, checked without building (the Electron runtime cannot be
 * downloaded here). electron-builder.yml is loaded by electron-builder's own loader and
 * validated against its schema, and its file patterns are evaluated by electron-builder's own
 * matchers with the macros it expands (`${arch}`, `${/*}`), so each assertion is about what
 * the packager would do, not about the text of the file. The functions come from
 * app-builder-lib, the library of the `electron-builder` devDependency (same version, hoisted).
 *
 * What is asserted, and where it is promised:
 * - README "Packaging": Linux AppImage and deb packages, macOS dmg and Windows nsis declared;
 *   x64 targets; native modules (sqlite3, node-llama-cpp and its Linux binaries) unpacked from
 *   the asar archive; the packaged app ships only the CPU build for its own Linux architecture.
 * - README "Packaging" and ARCHITECTURE (environment notes): package.json `overrides` point the
 *   mac / win / RISC-V and CUDA platform packages at resources/empty-package, keeping
 *   @node-llama-cpp/linux-x64 (and arm64, Vulkan) as real installs.
 * - electron-builder.yml's own comments: the GPU and other-architecture builds are left out
 *   and the llama.cpp source bundle (llama/gitRelease.bundle) is not shipped.
 * - The app's identity (appId, productName "Veil", the window title and README name).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DebugLogger, type FilterStats } from 'builder-util';
import type { AppInfo, Configuration, LinuxConfiguration } from 'electron-builder';
import * as fileMatchers from 'app-builder-lib/out/fileMatcher.js';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { expandMacro } from 'app-builder-lib/out/util/macroExpander.js';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const LLAMA_SCOPE = 'node_modules/@node-llama-cpp';

/** getNodeModuleFileMatcher is internal to app-builder-lib (no type declaration): the matcher it builds filters every file under node_modules. */
const { getFileMatchers, getNodeModuleFileMatcher } = fileMatchers as typeof fileMatchers & {
  getNodeModuleFileMatcher(appDir: string, destination: string, macroExpander: (pattern: string) => string, platformOptions: object, packager: { config: Configuration; debugLogger: DebugLogger }): fileMatchers.FileMatcher;
};

let config: Configuration;
let linux: LinuxConfiguration;

beforeAll(async () => {
  config = await getConfig(ROOT, null, null);
  linux = config.linux ?? {};
});

/** The packager's macro expander for one architecture (platformPackager.createGetFileMatchersOptions). */
const macroExpander = (arch: string) => (pattern: string) =>
  expandMacro(pattern, arch, { productName: config.productName, sanitizedProductName: config.productName } as unknown as AppInfo, { '/*': '{,/**/*}' });

/** What the filter sees for a file: node_modules files carry their path relative to the app (NodeModuleCopyHelper). */
const fileStats = (path: string): FilterStats => ({ moduleFullFilePath: path.startsWith('node_modules/') ? path : undefined, isDirectory: () => false }) as unknown as FilterStats;

/** Whether a file under node_modules goes into the Linux package for `arch` (the `files` patterns, as the packager applies them to modules). */
function shipsModuleFile(arch: string): (path: string) => boolean {
  const filter = getNodeModuleFileMatcher(ROOT, ROOT, macroExpander(arch), linux, { config, debugLogger: new DebugLogger(false) }).createFilter();
  return (path) => filter(join(ROOT, path), fileStats(path));
}

/** The default matcher of a file-set option (`files`, `asarUnpack`) for `arch`, as a predicate on paths relative to the app. */
function matches(name: 'files' | 'asarUnpack', arch: string): (path: string) => boolean {
  const [matcher] = getFileMatchers(config, name, ROOT, { macroExpander: macroExpander(arch), customBuildOptions: linux, globalOutDir: join(ROOT, 'dist'), defaultSrc: ROOT }) ?? [];
  const filter = matcher.createFilter();
  return (path) => filter(join(ROOT, path), fileStats(path));
}

/** Every file under `dir` (relative to the app, following the symlinked stand-ins). */
function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    return statSync(join(ROOT, path)).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('electron-builder.yml', () => {
  it('is valid for electron-builder (its loader and schema)', async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('names the app Veil with a fixed app id', () => {
    expect(config.productName).toBe('Veil');
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toMatch(/^# Veil\n/);
    expect(readFileSync(join(ROOT, 'electron/main/window.ts'), 'utf8')).toContain(`title: '${config.productName}'`);
    expect(config.appId).toBe('org.veil.app');
  });

  it('builds Linux AppImage and deb packages for x64 and declares macOS dmg and Windows nsis', () => {
    expect(linux.target).toEqual([{ target: 'AppImage', arch: ['x64'] }, { target: 'deb', arch: ['x64'] }]);
    expect(config.mac?.target).toEqual(['dmg']);
    expect(config.win?.target).toEqual(['nsis']);
  });

  it('packages the app entry point named by package.json main', () => {
    const main = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { main: string }).main;
    expect(matches('files', 'x64')(main)).toBe(true);
    expect(matches('files', 'x64')('package.json')).toBe(true);
  });

  it('flips the Electron fuses that would let the shipped binary run other code (no run-as-node, NODE_OPTIONS, --inspect; app code only from the asar, checked against its embedded hash)', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
      enableCookieEncryption: true,
    });
    // The model host must then be a utilityProcess in Electron (a child_process.fork of the Electron binary needs run-as-node).
    expect(readFileSync(join(ROOT, 'electron/workers/launchModelHost.ts'), 'utf8')).toContain('electron.utilityProcess.fork(');
  });

  it('packs the app into an asar archive and unpacks exactly the native modules from it', () => {
    expect(config.asar).toBe(true);
    const unpacked = matches('asarUnpack', 'x64');
    for (const path of [
      'node_modules/sqlite3/build/Release/node_sqlite3.node',
      'node_modules/sqlite3/lib/sqlite3.js',
      'node_modules/node-llama-cpp/dist/index.js',
      `${LLAMA_SCOPE}/linux-x64/bins/linux-x64/llama-addon.node`,
      `${LLAMA_SCOPE}/linux-x64/bins/linux-x64/libllama.v0.5.0.so`,
    ]) expect(unpacked(path), path).toBe(true);
    for (const path of ['out/main/index.js', 'package.json', 'node_modules/react/index.js', 'node_modules/csv-parse/package.json']) expect(unpacked(path), path).toBe(false);
  });

  it.each(['x64', 'arm64'])('ships only the CPU llama.cpp build of its own architecture (%s)', (arch) => {
    const ships = shipsModuleFile(arch);
    const optional = Object.keys((JSON.parse(readFileSync(join(ROOT, 'node_modules/node-llama-cpp/package.json'), 'utf8')) as { optionalDependencies: Record<string, string> }).optionalDependencies);
    expect(optional).toContain(`@node-llama-cpp/linux-${arch}`);
    for (const name of optional.map((pkg) => pkg.replace('@node-llama-cpp/', ''))) {
      for (const file of ['package.json', 'dist/index.js', `bins/${name}/llama-addon.node`]) {
        const path = `${LLAMA_SCOPE}/${name}/${file}`;
        expect(ships(path), path).toBe(name === `linux-${arch}`);
      }
    }
    // node-llama-cpp itself ships, and sqlite3's native binding.
    expect(ships('node_modules/node-llama-cpp/dist/index.js')).toBe(true);
    expect(ships('node_modules/sqlite3/build/Release/node_sqlite3.node')).toBe(true);
  });

  // npm installs @node-llama-cpp/linux-x64 only on an x64 Linux host (its os / cpu fields).
  it.runIf(process.platform === 'linux' && process.arch === 'x64')('keeps every installed file of @node-llama-cpp/linux-x64 and none of the other installed builds (x64 package)', () => {
    const ships = shipsModuleFile('x64');
    const installed = readdirSync(join(ROOT, LLAMA_SCOPE));
    expect(installed).toContain('linux-x64');
    const kept = filesUnder(`${LLAMA_SCOPE}/linux-x64`);
    expect(kept).toContain(`${LLAMA_SCOPE}/linux-x64/bins/linux-x64/llama-addon.node`);
    expect(kept.filter((path) => !ships(path))).toEqual([]);
    const others = installed.filter((name) => name !== 'linux-x64').flatMap((name) => filesUnder(`${LLAMA_SCOPE}/${name}`));
    expect(others.filter((path) => path.endsWith('.node')).length).toBeGreaterThan(0);
    expect(others.filter(ships)).toEqual([]);
  });

  it('leaves out the llama.cpp source bundle', () => {
    const ships = shipsModuleFile('x64');
    expect(existsSync(join(ROOT, 'node_modules/node-llama-cpp/llama/gitRelease.bundle'))).toBe(true);
    expect(ships('node_modules/node-llama-cpp/llama/gitRelease.bundle')).toBe(false);
    expect(ships('node_modules/node-llama-cpp/llama/binariesGithubRelease.json')).toBe(true);
  });
});

describe('package.json overrides', () => {
  it('point the mac, win, RISC-V and CUDA llama.cpp packages at the empty package and keep the Linux x64, arm64 and Vulkan builds', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { overrides: Record<string, string> };
    const optional = Object.keys((JSON.parse(readFileSync(join(ROOT, 'node_modules/node-llama-cpp/package.json'), 'utf8')) as { optionalDependencies: Record<string, string> }).optionalDependencies);
    const standIns = optional.filter((name) => /^@node-llama-cpp\/(mac|win)-|riscv|cuda/.test(name));
    expect(Object.keys(pkg.overrides).sort()).toEqual(standIns.sort());
    for (const name of standIns) expect(pkg.overrides[name], name).toBe('file:./resources/empty-package');
    for (const kept of ['linux-x64', 'linux-arm64', 'linux-x64-vulkan']) {
      expect(optional).toContain(`@node-llama-cpp/${kept}`);
      expect(pkg.overrides).not.toHaveProperty(`@node-llama-cpp/${kept}`);
    }
    expect(existsSync(join(ROOT, 'resources/empty-package/package.json'))).toBe(true);
  });
});
