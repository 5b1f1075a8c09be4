/** Shows a work's messages (errors, what it could not do) in its notice element, one a line; hides it when there are none. */
export function showNotice(notice: HTMLElement | null, lines: readonly string[]): void {
  if (notice === null) return;
  notice.replaceChildren(
    ...lines.map((line) => {
      const item = document.createElement('div');
      item.textContent = line;
      return item;
    }),
  );
  notice.hidden = lines.length === 0;
}
