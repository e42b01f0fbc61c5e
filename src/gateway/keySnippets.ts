/**
 * What the console shows beside a new key's secret, ready to paste: the base URL with /v1, a curl
 * call, and the official openai SDK for Python and Node. Built once per key, never stored.
 */

export interface KeySnippets {
  readonly base_url: string;
  readonly model: string;
  readonly curl: string;
  readonly python: string;
  readonly node: string;
}

export function keySnippets(origin: string, secret: string, model: string): KeySnippets {
  const baseUrl = `${origin}/v1`;
  return {
    base_url: baseUrl,
    model,
    curl: [
      `curl ${baseUrl}/chat/completions \\`,
      `  -H "Authorization: Bearer ${secret}" \\`,
      `  -H "Content-Type: application/json" \\`,
      `  -d '{"model": "${model}", "messages": [{"role": "user", "content": "Hello"}]}'`,
    ].join('\n'),
    python: [
      'from openai import OpenAI',
      '',
      `client = OpenAI(base_url="${baseUrl}", api_key="${secret}")`,
      `answer = client.chat.completions.create(model="${model}", messages=[{"role": "user", "content": "Hello"}])`,
      'print(answer.choices[0].message.content)',
    ].join('\n'),
    node: [
      "import OpenAI from 'openai';",
      '',
      `const client = new OpenAI({ baseURL: '${baseUrl}', apiKey: '${secret}' });`,
      `const answer = await client.chat.completions.create({ model: '${model}', messages: [{ role: 'user', content: 'Hello' }] });`,
      'console.log(answer.choices[0].message.content);',
    ].join('\n'),
  };
}
