/**
 * Files editors and tools write beside the one being saved, which are no change to the site: a
 * rebuild for each would double the work of every save, and one for a file that is gone by the
 * time it is read fails for nothing. Tested name by name in test/watch/editor-files.test.ts.
 */

/** By the last part of the path (its name). */
const TEMPORARY_NAMES = [
  // Dot files: vim's swap (.x.swp), emacs' lock (.#x), atomic-save temporaries (.x.tmp), .DS_Store.
  /^\./,
  // Backups: vim, emacs and nano (x~), emacs' auto-save (#x#).
  /~$/,
  /^#.*#$/,
  // Swap files without the dot: vim's .swp to .swa and .swx, kate's.
  /\.sw[a-px]$/,
  /\.kate-swp$/,
  // Temporaries: x.tmp, x.12345.tmp (atomic writers), JetBrains' safe write, Chromium's File System API.
  /\.tmp$/,
  /___jb_(tmp|old)___$/,
  /\.crswap$/,
  // GNU sed -i writes sedXXXXXX (six random letters and digits) in the file's folder, then renames it.
  /^sed[A-Za-z0-9]{6}$/,
];

/** Vim, before a write, creates and deletes "4913" to test the folder (5036, 5159… when taken). */
function isVimWriteTest(name: string): boolean {
  return /^\d{4,6}$/.test(name) && Number(name) >= 4913 && (Number(name) - 4913) % 123 === 0;
}

/** Whether `file` (relative to the project, either separator) is an editor's temporary file or in a dot folder. */
export function isEditorTemporary(file: string): boolean {
  const parts = file.split(/[/\\]/);
  if (parts.slice(0, -1).some((part) => part.startsWith("."))) return true;
  const name = parts.at(-1) ?? "";
  return isVimWriteTest(name) || TEMPORARY_NAMES.some((pattern) => pattern.test(name));
}
