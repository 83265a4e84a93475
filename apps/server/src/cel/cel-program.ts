import { Environment, type ParseResult } from '@marcbachmann/cel-js';
import { LRUCache } from 'lru-cache';

/**
 * The one CEL environment of the areas' expressions (notification filters and templates,
 * definition-of-done scripts, playbook conditions and templates, topology expressions).
 * Every variable is dynamic (the data is users' JSON, without a schema), and mixed-type list
 * and map literals are allowed (`{"name": n, "pass": true}`). How values go in and come out
 * stays with each area, since their callers differ there (whole numbers as CEL ints or not).
 */
const environment = new Environment({ unlistedVariablesAreDyn: true, homogeneousAggregateLiterals: false });

/**
 * Parsed programs by source, shared by the areas: the same few expressions run for every
 * event, run or roll-up, so parsing once matters; the bound keeps memory flat when specs churn.
 */
const programs = new LRUCache<string, ParseResult>({ max: 4000 });

/** The parsed program of `expression` (cached); throws cel-js's error when it does not parse. */
export function celProgram(expression: string): ParseResult {
  let program = programs.get(expression);
  if (!program) {
    program = environment.parse(expression);
    programs.set(expression, program);
  }
  return program;
}

/** The first line of a cel-js error; the rest is a source excerpt with a caret. */
export function celErrorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]?.trim() || 'invalid expression';
}

/** Why an expression does not parse, or undefined when it does (write-time validation). */
export function celParseProblem(expression: string): string | undefined {
  try {
    celProgram(expression);
    return undefined;
  } catch (error) {
    return celErrorText(error);
  }
}

/**
 * Why an expression does not compile (parse and type check, as cel-go's `Compile`), or
 * undefined when it does: with every variable dynamic, the check finds only what fails on
 * every evaluation whatever the data (`'a' + 1`, an unknown function).
 */
export function celCompileProblem(expression: string): string | undefined {
  try {
    const checked = celProgram(expression).check();
    return checked.valid ? undefined : celErrorText(checked.error ?? 'does not type-check');
  } catch (error) {
    return celErrorText(error);
  }
}
