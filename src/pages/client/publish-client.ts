/**
 * The one way a page publishes: POST a JSON body to a publish route (`/api/store-kidlisp`,
 * `/api/store-clock`). A key the person pasted on the settings page (kept in this browser under
 * API_KEY_STORAGE_KEY) goes along as `Authorization: Bearer <key>`; without one, anonymously.
 */
export const API_KEY_STORAGE_KEY = 'publish-gateway:key';

export type PublishAnswer =
  | { ok: true; code: string; url: string }
  | { ok: false; status: number; message: string };

function storedKey(): string | null {
  try {
    return localStorage.getItem(API_KEY_STORAGE_KEY)?.trim() || null;
  } catch {
    return null;
  }
}

export async function publishFromBrowser(
  path: string,
  body: Record<string, unknown>,
): Promise<PublishAnswer> {
  const key = storedKey();
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(key ? { authorization: `Bearer ${key}` } : {}),
      },
      credentials: 'same-origin',
      body: JSON.stringify(body),
    });
  } catch {
    return { ok: false, status: 0, message: 'The service could not be reached; try again.' };
  }
  const answer = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (response.ok && typeof answer?.code === 'string' && typeof answer.url === 'string')
    return { ok: true, code: answer.code, url: answer.url };
  const message =
    typeof answer?.message === 'string'
      ? answer.message
      : `Publishing failed (HTTP ${response.status}).`;
  return { ok: false, status: response.status, message };
}
