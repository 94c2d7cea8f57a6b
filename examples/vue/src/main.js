// Defines <agent-chat> (and the conversations panel its header offers) before Vue renders it.
import 'agent-chat/define';
import { defineConversationsPanel } from 'agent-chat';
import { createApp } from 'vue';
import App from './App.vue';

defineConversationsPanel();
createApp(App).mount('#app');
