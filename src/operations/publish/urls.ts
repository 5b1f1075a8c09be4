export const itemUrl = (publicUrl: string, code: string) => `${publicUrl}/${code}`;
export const clockUrl = (publicUrl: string, code: string) => `${publicUrl}/clock~${code}`;
