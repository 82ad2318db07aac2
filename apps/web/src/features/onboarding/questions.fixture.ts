/**
 * A questionnaire entry as the server sends it (tests): option ids are `id * 10 + n` (n = 1, 2, …),
 * in the order of `contents`; `icons` go to the options in the same order.
 */
export function serverQuestion(
  id: number,
  question_content: string,
  select_type: number,
  contents: string[],
  icons?: string[],
) {
  return {
    id,
    question_content,
    select_type,
    question_options: contents.map((content, i) => ({
      id: id * 10 + i + 1,
      content,
      ...(icons ? { icon: icons[i] } : {}),
    })),
  };
}
