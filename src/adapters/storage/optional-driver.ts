/**
 * Loads a database driver that strongroom lists as an optional peer dependency, so `npm i strongroom` stays small.
 * A missing package becomes an error that names the command to run instead of a bare module-resolution failure.
 */
export async function loadOptionalDriver<T>(packageName: string, entry: string): Promise<T> {
  try {
    const loaded = (await import(packageName)) as { default?: T };
    return (loaded.default ?? loaded) as T;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new Error(
        `${entry} needs the ${packageName} package, which is not installed: run \`npm i ${packageName}\``,
        { cause: error },
      );
    }
    throw error;
  }
}
