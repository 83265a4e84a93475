import { classifyScrapeExpression } from '@lookout/contracts';
import {
  getQuickJS,
  shouldInterruptAfterDeadline,
  type QuickJSContext,
  type QuickJSWASMModule,
} from 'quickjs-emscripten';

/**
 * `javascript:` scrape expressions (config-db's javascript kind: the item is the variable
 * `config`, the script's last value is the result). Scraped files are not trusted, so the
 * script runs in QuickJS compiled to WebAssembly, not in node:vm: its own heap with a memory
 * limit, an interrupt deadline, and no host functions at all (no require, process, console,
 * timers or I/O). The only input is the item, copied in as JSON text.
 *
 * The deadline is checked between bytecode steps, so a long native call can overrun it (seen:
 * `'x'.repeat(1 << 20)` in a loop at the memory limit takes seconds to fail); it ends, but a
 * hard wall-clock stop would need a worker thread to terminate.
 */

export const SCRAPE_JAVASCRIPT_LIMITS = {
  /** Wall time one evaluation may take before it is interrupted. */
  timeoutMs: 100,
  /** Heap of one evaluation's runtime. */
  memoryBytes: 16 * 1024 * 1024,
  /**
   * Stack of one evaluation: runaway recursion ends in QuickJS's own "stack overflow" error
   * well before the WebAssembly stack of the host runs out (512 KiB did not, under vitest).
   */
  stackBytes: 128 * 1024,
} as const;

// The WebAssembly engine costs about 12 MB and 15 ms to load, so it is loaded on the first run of
// a scraper that uses javascript, not at start-up; evaluation itself stays synchronous like the
// other kinds.
let quickjs: QuickJSWASMModule | undefined;
let loading: Promise<QuickJSWASMModule> | undefined;

/** Loads the engine once; a scrape run awaits it before evaluating javascript expressions. */
export async function loadJavascriptEngine(): Promise<void> {
  loading ??= getQuickJS().then((module) => (quickjs = module));
  await loading;
}

/** Whether any string in a scraper spec is a javascript expression. */
export function usesJavascript(value: unknown): boolean {
  if (typeof value === 'string') return classifyScrapeExpression(value).kind === 'javascript';
  if (Array.isArray(value)) return value.some(usesJavascript);
  if (value && typeof value === 'object') return Object.values(value).some(usesJavascript);
  return false;
}

function errorText(vm: QuickJSContext, handle: Parameters<QuickJSContext['dump']>[0]): string {
  const dumped = vm.dump(handle) as unknown;
  if (dumped && typeof dumped === 'object') {
    const { name, message } = dumped as { name?: unknown; message?: unknown };
    if (typeof message === 'string') return typeof name === 'string' && name ? `${name}: ${message}` : message;
  }
  return String(dumped);
}

// A top-level `return` is allowed too: such a script runs as a function body.
function wrapped(script: string): string {
  return `(function () {\n${script}\n})()`;
}

type Outcome = { ok: true; value: unknown } | { ok: false; message: string };

function run(script: string, json: string): Outcome {
  if (!quickjs) return { ok: false, message: 'the javascript engine is not loaded (loadJavascriptEngine)' };
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(SCRAPE_JAVASCRIPT_LIMITS.memoryBytes);
  runtime.setMaxStackSize(SCRAPE_JAVASCRIPT_LIMITS.stackBytes);
  const deadline = Date.now() + SCRAPE_JAVASCRIPT_LIMITS.timeoutMs;
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(deadline));
  const vm = runtime.newContext();
  try {
    const input = vm.newString(json);
    vm.setProp(vm.global, '__lookoutInput', input);
    input.dispose();
    const setup = vm.evalCode('globalThis.config = JSON.parse(__lookoutInput); delete globalThis.__lookoutInput;');
    if (setup.error) {
      const message = errorText(vm, setup.error);
      setup.error.dispose();
      return { ok: false, message };
    }
    setup.value.dispose();
    let result = vm.evalCode(script, 'expression.js');
    if (result.error) {
      const message = errorText(vm, result.error);
      if (/return not in a function/.test(message)) {
        result.error.dispose();
        result = vm.evalCode(wrapped(script), 'expression.js');
      }
    }
    if (result.error) {
      const message = errorText(vm, result.error);
      result.error.dispose();
      if (Date.now() >= deadline && /interrupted/i.test(message)) {
        return { ok: false, message: `stopped after ${SCRAPE_JAVASCRIPT_LIMITS.timeoutMs} ms (time limit)` };
      }
      return { ok: false, message };
    }
    const value = vm.dump(result.value) as unknown;
    result.value.dispose();
    return { ok: true, value };
  } finally {
    vm.dispose();
    runtime.dispose();
  }
}

/** The value of a javascript expression for an item; throws an Error whose message says why not. */
export function evaluateJavascript(script: string, document: unknown): unknown {
  const json = JSON.stringify(document ?? null);
  const outcome = run(script, json);
  if (!outcome.ok) throw new Error(outcome.message.split('\n')[0]?.trim() || 'script failed');
  return outcome.value;
}
