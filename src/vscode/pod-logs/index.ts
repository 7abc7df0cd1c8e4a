export { FOLLOW_LOGS_COMMAND, registerPodLogs, type PodLogSource, type PodLogsRegistration } from './follow-logs-command';
