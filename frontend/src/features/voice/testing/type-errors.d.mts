/** Type errors of one in-memory TypeScript file, compiled with the project's settings. */
export declare function typeErrors(fileName: string, source: string): string[];
