/** Why a file could not be read, in words a user acts on (never the path's contents). */
export function fileProblem(err: unknown): string {
  switch ((err as { code?: string } | undefined)?.code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a directory';
    default:
      return 'the file cannot be read';
  }
}
