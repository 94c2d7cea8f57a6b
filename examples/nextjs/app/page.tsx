import { Chat } from './chat';

export default function Home() {
  return (
    <main>
      <h1>My product</h1>
      <div id="assistant">
        <Chat />
      </div>
    </main>
  );
}
