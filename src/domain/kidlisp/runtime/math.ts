export type Operator = '+' | '-' | '*' | '/' | '%';

/**
 * The arithmetic of `+ - * / %` (and the infix shorthand): `+` of nothing is 0, `*` of nothing
 * is 1, `-` of one number negates it, `/` skips zero divisors, `%` by zero is 0.
 */
export function arithmetic(op: Operator, numbers: readonly number[]): number {
  switch (op) {
    case '+':
      return numbers.reduce((sum, n) => sum + n, 0);
    case '-': {
      if (numbers.length === 0) return 0;
      const [first = 0, ...rest] = numbers;
      return rest.length === 0 ? -first : rest.reduce((acc, n) => acc - n, first);
    }
    case '*':
      return numbers.reduce((product, n) => product * n, 1);
    case '/': {
      if (numbers.length === 0) return 0;
      const [first = 0, ...rest] = numbers;
      return rest.reduce((acc, n) => (n === 0 ? acc : acc / n), first);
    }
    case '%': {
      const [a = 0, b = 0] = numbers;
      return b === 0 ? 0 : a % b;
    }
  }
}
