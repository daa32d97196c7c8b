import {
  AppstoreOutlined,
  DashboardOutlined,
  FolderOpenOutlined,
  MessageOutlined,
  RobotOutlined,
  SettingOutlined,
  TeamOutlined,
} from '@ant-design/icons';

const icons = {
  dashboard: DashboardOutlined,
  folder: FolderOpenOutlined,
  setting: SettingOutlined,
  team: TeamOutlined,
  message: MessageOutlined,
  robot: RobotOutlined,
} as const;

function isIconName(name: string): name is keyof typeof icons {
  return Object.prototype.hasOwnProperty.call(icons, name);
}

/** The antd icon a menu item names; unknown names get a neutral icon. */
export function MenuIcon({ name }: { name: string | undefined }) {
  const Icon = name && isIconName(name) ? icons[name] : AppstoreOutlined;
  return <Icon />;
}
