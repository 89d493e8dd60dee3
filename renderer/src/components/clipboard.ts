/** Copy text with the async clipboard API; false where it is missing (insecure context) or permission is denied. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
