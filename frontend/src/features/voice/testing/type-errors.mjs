// Type-checks a TypeScript file held in memory, as the tests that hold our code to an SDK's
// declared types write one: a value assigned to the type the SDK declares for it. Plain
// JavaScript (typed by type-errors.d.mts), so the front end's unit tests and the SDK contracts in
// tests/contract/ (run by Node) share it; `typescript` and the SDKs resolve from frontend/.
import ts from 'typescript';

/**
 * Type errors of one in-memory TypeScript file, compiled with the project's settings. Its imports
 * resolve from `fileName`'s folder, so name it inside frontend/.
 */
export function typeErrors(fileName, source) {
  const options = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language) =>
    name === fileName ? ts.createSourceFile(name, source, language) : getSourceFile(name, language);
  host.fileExists = (
    (fileExists) => (name) =>
      name === fileName || fileExists(name)
  )(host.fileExists.bind(host));
  const program = ts.createProgram([fileName], options, host);
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(fileName))
    .map(
      (d) =>
        `${source.split('\n')[d.file ? d.file.getLineAndCharacterOfPosition(d.start ?? 0).line : 0]}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    );
}
