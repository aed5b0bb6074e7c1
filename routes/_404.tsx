// Any other path.

export const title = "Not found";

export default function NotFound() {
  return (
    <main class="not-found">
      <h1>Not found</h1>
      <p>
        <a href="/">Go to the start page</a>
      </p>
    </main>
  );
}
