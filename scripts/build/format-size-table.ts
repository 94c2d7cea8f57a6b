import type { BuildManifest } from './create-manifest.ts';

/** Formats the manifest's JavaScript files as an aligned text table (path, bytes, gzip, brotli, integrity). */
export function formatSizeTable(manifest: BuildManifest): string {
  const rows = Object.entries(manifest.files)
    .filter(([path]) => path.endsWith('.js'))
    .map(([path, file]) => [
      path,
      formatKb(file.bytes),
      formatKb(file.gzipBytes),
      formatKb(file.brotliBytes),
      file.integrity,
    ]);
  const declarations = Object.entries(manifest.files).filter(([path]) => path.endsWith('.d.ts'));
  const header = ['file', 'size', 'gzip', 'brotli', 'integrity'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] as string).length)),
  );
  const line = (cells: string[]): string =>
    cells
      .map((cell, column) =>
        column >= 1 && column <= 3 ? cell.padStart(widths[column] as number) : cell.padEnd(widths[column] as number),
      )
      .join('  ')
      .trimEnd();
  const declarationBytes = declarations.reduce((sum, [, file]) => sum + file.bytes, 0);
  return [
    `${manifest.name} ${manifest.version}`,
    line(header),
    ...rows.map(line),
    `+ ${declarations.length} type declaration files (${formatKb(declarationBytes)}), listed in dist/manifest.json`,
  ].join('\n');
}

/** Bytes as kilobytes (1 KB = 1000 bytes) with two decimals. */
export function formatKb(bytes: number): string {
  return `${(bytes / 1000).toFixed(2)} KB`;
}
