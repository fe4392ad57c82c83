/** Starts the browser's download of a URL (the server names the file) or of text made here. */
export function saveFile(source: { href: string } | { text: string; fileName: string }): void {
  const a = document.createElement('a');
  let revoke: string | null = null;
  if ('href' in source) {
    a.href = source.href;
  } else {
    revoke = URL.createObjectURL(new Blob([source.text], { type: 'text/csv;charset=utf-8' }));
    a.href = revoke;
    a.download = source.fileName;
  }
  a.rel = 'noopener';
  a.hidden = true;
  document.body.appendChild(a);
  a.click();
  a.remove();
  if (revoke) setTimeout(() => URL.revokeObjectURL(revoke), 10_000);
}
