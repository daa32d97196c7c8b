// Import cycles among the project's own modules (DESIGN 3: "no cycles"). Each file is parsed on
// its own (no type checker) and each module specifier resolved the way tsc resolves it with the
// project's compiler options, so `@/…` paths, `@atrium/shared/…` subpaths and `.js` specifiers
// land where tsc puts them. Type-only imports and exports leave nothing at run time and make no
// edge; a dynamic `import()` does.
import { relative } from 'node:path';
import ts from 'typescript';

/** Whether an import or export declaration is erased from the emitted code. */
function typeOnly(node) {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return true;
    const clause = node.exportClause;
    return !!clause && ts.isNamedExports(clause) && clause.elements.length > 0
      ? clause.elements.every((e) => e.isTypeOnly)
      : false;
  }
  const clause = node.importClause;
  if (!clause) return false; // `import './x'`: run for its effects.
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return (
    !!bindings &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((e) => e.isTypeOnly)
  );
}

/** The module specifiers of a file that load code at run time. */
function runtimeSpecifiers(sourceFile) {
  const found = [];
  const visit = (node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      if (!typeOnly(node)) found.push(node.moduleSpecifier);
      return;
    }
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    )
      found.push(node.arguments[0]);
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

/**
 * The graph of run-time imports between the files `owns(fileName)` accepts, over several
 * projects (`{ fileNames, options }`, as a parsed tsconfig gives them): a file in more than one
 * is read with the first that lists it.
 */
export function importGraph(projects, owns) {
  const declaration = /\.d\.[cm]?ts$/;
  const graph = new Map();
  for (const { fileNames, options } of projects) {
    const cache = ts.createModuleResolutionCache(ts.sys.getCurrentDirectory(), (f) => f, options);
    for (const from of fileNames) {
      if (declaration.test(from) || graph.has(from) || !owns(from)) continue;
      const text = ts.sys.readFile(from) ?? '';
      const sourceFile = ts.createSourceFile(from, text, ts.ScriptTarget.Latest);
      const targets = new Set();
      for (const specifier of runtimeSpecifiers(sourceFile)) {
        const target = ts.resolveModuleName(specifier.text, from, options, ts.sys, cache)
          .resolvedModule?.resolvedFileName;
        if (target && !declaration.test(target) && owns(target)) targets.add(target);
      }
      graph.set(from, [...targets].sort());
    }
  }
  return graph;
}

/** The strongly connected parts of the graph with a cycle in them (Tarjan's algorithm). */
function cyclicParts(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const parts = [];
  let next = 0;
  const connect = (start) => {
    // Iterative, so a long chain of imports cannot overflow the call stack.
    const frames = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (frames.length > 0) {
      const frame = frames.at(-1);
      const targets = graph.get(frame.node) ?? [];
      if (frame.edge < targets.length) {
        const target = targets[frame.edge++];
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          frames.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node), index.get(target)));
        }
        continue;
      }
      frames.pop();
      const parent = frames.at(-1);
      if (parent) low.set(parent.node, Math.min(low.get(parent.node), low.get(frame.node)));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const part = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        part.push(member);
      } while (member !== frame.node);
      const selfLoop = (graph.get(frame.node) ?? []).includes(frame.node);
      if (part.length > 1 || selfLoop) parts.push(part.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) connect(node);
  return parts;
}

/** One shortest way round from `start` back to itself, inside `part`. */
function loopThrough(graph, part, start) {
  const inside = new Set(part);
  const cameFrom = new Map();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i];
    for (const target of graph.get(node) ?? []) {
      if (!inside.has(target)) continue;
      if (target === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]));
        return [...path, start];
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

/**
 * Every import cycle, one per group of files that import each other: its files and one loop
 * through them, as paths relative to `root`.
 */
export function importCycles(graph, root) {
  return cyclicParts(graph).map((part) => ({
    files: part.map((file) => relative(root, file)),
    loop: loopThrough(graph, part, part[0]).map((file) => relative(root, file)),
  }));
}
